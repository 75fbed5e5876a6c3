import type { ApiContract, ApiFiles, ResponseOf } from '../../shared/api-contract';
import { apiRequest, type RequestOptions } from './api';

/**
 * Typed calls over the shared API contract: the key names the method and path
 * (`'GET /tickets/:id'`), and the path values, query, body and answer are those the contract
 * gives it, which the provider's routes are checked against. A call the provider does not have,
 * or an answer read by a field it does not send, fails `npm run typecheck`.
 */

type Calls = ApiContract & ApiFiles;
type PathOf<K> = K extends `${string} /${infer Path}` ? Path : never;
type ParamNames<P> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | ParamNames<Rest> : P extends `${string}:${infer Name}` ? Name : never;

/** Query values an address can carry; empty ones are left out of it. */
type QueryValue = string | number | boolean | null | undefined;

/**
 * What a call takes besides its key: its path values, its query (each field optional, as the
 * provider fills in defaults; an empty value is left out) and its body.
 */
export type CallArgs<K extends keyof Calls> = ([ParamNames<PathOf<K>>] extends [never] ? unknown : { params: Record<ParamNames<PathOf<K>>, string | number> }) &
  (Calls[K] extends { query: infer Q } ? { query?: { [F in keyof Q]?: Q[F] | null | '' } } : unknown) &
  (Calls[K] extends { body: infer B } ? { body: B } : unknown);

/** The arguments after the key (with `Extra` options, or `Or` instead): may be left out when nothing in them is required. */
export type ArgsOf<K extends keyof Calls, Extra = unknown, Or = never> = object extends CallArgs<K>
  ? [args?: (CallArgs<K> & Extra) | Or]
  : [args: (CallArgs<K> & Extra) | Or];

/** `path?a=1&b=2`, leaving out empty values. */
export const withQuery = (path: string, query: Record<string, QueryValue>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
};

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

// The typed arguments as the code below reads them, whichever call they are for.
const partsOf = (args: unknown) =>
  (args ?? {}) as { params?: Record<string, string | number>; query?: Record<string, QueryValue>; body?: unknown } & RequestExtras;

/** How a call may be sent: cut short by a newer one, (signing in) without the token, or only onto a version. */
type RequestExtras = Pick<RequestOptions, 'signal' | 'authenticated' | 'ifMatch'>;

/** A call's address under the API base, e.g. `tickets/12/comments` or `tickets?page=2`. */
export const apiPath = <K extends keyof Calls>(key: K, ...[args]: ArgsOf<K>) => {
  const { params = {}, query } = partsOf(args);
  const path = key.replace(/^\S+ \//, '').replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name])));
  return query ? withQuery(path, query) : path;
};

/** Sends a call and answers with the contract's type for it. */
export const callApi = <K extends keyof ApiContract>(key: K, ...args: ArgsOf<K, RequestExtras>) => {
  const { body, signal, authenticated, ifMatch } = partsOf(args[0]);
  return apiRequest<ResponseOf<K>>(apiPath(key, ...args), { method: METHODS.find((method) => key.startsWith(`${method} `)), body, signal, authenticated, ifMatch });
};
