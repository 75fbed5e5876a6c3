import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../../../shared/schemas/audit';
import { parseDay } from '../../../shared/dates';
import { optionalId, optionalOneOf, optionalPage, useListParams } from '../url-state';

/**
 * `/audit/`: `id` opens an entry; the rest are the log's filters (the API's own names) and page,
 * so a reload, Back or a shared link shows the same entries (docs/architecture.md#search-and-list-views).
 */
export const parseAuditParams = (params: URLSearchParams) => ({
  id: optionalId(params.get('id')),
  entity: optionalOneOf(AUDIT_ENTITIES, params.get('entity')),
  entityId: optionalId(params.get('entityId')),
  actorId: optionalId(params.get('actorId')),
  action: optionalOneOf(AUDIT_ACTIONS, params.get('action')),
  /** Calendar days, YYYY-MM-DD; the API reads them as UTC days, inclusive. */
  from: parseDay(params.get('from')),
  to: parseDay(params.get('to')),
  page: optionalPage(params.get('page')),
});

export type AuditView = ReturnType<typeof parseAuditParams>;

export const useAuditParams = () => useListParams(parseAuditParams);
