import type { Versioned } from '../../../shared/types';
import { StaleVersion } from '../errors/domain';

/**
 * Record versions (docs/architecture.md#record-versions, migration 0008). Every UPDATE of an editable record adds
 * VERSION_BUMP to its SET; a PATCH that names the version it was edited from adds
 * `version = coalesce(?n, version)` to its WHERE (the expected version bound as ?n, null when the
 * caller sent none), so of two saves made from the same version only the first changes the row.
 */
export const VERSION_BUMP = 'version = version + 1';

/** The WHERE condition of a versioned write, with the expected version (or null) bound as `?param`. */
export const versionMatches = (param: number) => `version = coalesce(?${param}, version)`;

/**
 * For a write that changed nothing, read afterwards: throws StaleVersion when the record exists at
 * another version than `expected`; otherwise returns it (null when there is no such record) for
 * the caller to name the other reason.
 */
export const unlessStale = <T extends Versioned>(current: T | null, expected: number | undefined): T | null => {
  if (current && expected !== undefined && current.version !== expected) throw new StaleVersion(current);
  return current;
};
