import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';

/**
 * The state a page keeps in its address's query string ("search values"): parsers for each kind of
 * value, and hooks that read and write them. An invalid value never breaks a page: it reads as
 * absent, so the page falls back to its default (`?id=abc` is the same as no id).
 */
export const optionalId = (value: string | null): number | undefined => {
  if (value === null || !/^\d{1,15}$/.test(value)) return undefined;
  const id = Number(value);
  return id > 0 ? id : undefined;
};

export const optionalBoolean = (value: string | null): boolean | undefined =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : undefined;

export const optionalText = (value: string | null): string | undefined => (value ? value : undefined);

/** A list page number: a whole number from 1; anything else reads as the first page. */
export const optionalPage = (value: string | null): number | undefined => {
  const page = optionalId(value);
  return page !== undefined && page <= 1_000_000 ? page : undefined;
};

export const optionalOneOf = <T extends string>(allowed: readonly T[], value: string | null): T | undefined =>
  allowed.find((candidate) => candidate === value);

type UrlValue = string | number | boolean | undefined;

/**
 * One typed view of a route's address values and a setter that merges changes into the address
 * (undefined removes a value), so every record has a shareable link.
 */
export const useUrlState = <T extends Record<string, UrlValue>>(parse: (params: URLSearchParams) => T) => {
  const [values, write] = useUrlWriter(parse);
  return [values, write as (changes: Partial<T>, options?: WriteOptions) => void] as const;
};

/**
 * A list page's address values (docs/architecture.md#search-and-list-views) with the moves a list makes: a filter or sort change
 * starts again at page 1 as one new history entry; typing in a search box replaces the entry, so
 * Back does not step through every keystroke.
 */
export const useListParams = <T extends Record<string, UrlValue> & { q?: string; page?: number }>(parse: (params: URLSearchParams) => T) => {
  const [values, write] = useUrlWriter(parse);
  const view = useMemo(
    () => ({
      update: write as (changes: Partial<T>, options?: WriteOptions) => void,
      filter: (changes: Partial<T>) => write({ ...changes, page: undefined }),
      search: (q: string) => write({ q, page: undefined }, { replace: true }),
      goTo: (page: number) => write({ page: page > 1 ? page : undefined }),
    }),
    [write],
  );
  return [values, view] as const;
};

interface WriteOptions {
  replace?: boolean;
}

const useUrlWriter = <T extends Record<string, UrlValue>>(parse: (params: URLSearchParams) => T) => {
  const [params, setParams] = useSearchParams();
  const values = useMemo(() => parse(params), [parse, params]);
  // The params as last written, until the router renders them: react-router hands a functional
  // update the params of the last render, so a second change before the re-render (From, then To)
  // would drop the first. The router may also render an earlier write after a later one was made;
  // that render must not take the later one back, so writes not yet rendered are kept in order.
  const latest = useRef(params);
  const unrendered = useRef<string[]>([]);
  useEffect(() => {
    const at = unrendered.current.indexOf(params.toString());
    // Not one of ours (Back, a link): the address wins and pending writes are void.
    unrendered.current = at < 0 ? [] : unrendered.current.slice(at + 1);
    if (unrendered.current.length === 0) latest.current = params;
  }, [params]);
  const write = useCallback(
    (changes: Record<string, UrlValue>, options: WriteOptions = {}) => {
      const next = new URLSearchParams(latest.current);
      for (const [key, value] of Object.entries(changes)) {
        if (value === undefined || value === '') next.delete(key);
        else next.set(key, String(value));
      }
      latest.current = next;
      unrendered.current.push(next.toString());
      setParams(next, { replace: options.replace });
    },
    [setParams],
  );
  return [values, write] as const;
};
