import { Hono } from 'hono';
import { CSV_BOM, csvLines } from '../../../shared/csv';
import { auditCsvEnd, auditQuerySchema, isRecordHistory } from '../../../shared/schemas/audit';
import { exportAudit, listAudit } from '../db/audit';
import { assertMay, requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { queryOf } from '../http/validate';

const CSV_HEADER = ['id', 'at', 'actor_id', 'actor', 'action', 'entity', 'entity_id', 'changes', 'request_id'];

/** `GET audit` and `GET audit.csv` (docs/architecture.md#roles-and-the-audit-log), mounted at the API root. */
export const auditRoutes = new Hono<ProviderEnv>()
  .get('/audit', requireAuth, queryOf(auditQuerySchema), async (c) => {
    const query = c.req.valid('query');
    // One record's history is part of reading that record; anything wider is for admins.
    if (!isRecordHistory(query)) await assertMay(c, 'readAuditLog');
    return c.json(await listAudit(c.env.DB, query));
  })
  .get('/audit.csv', requireAuth, requireRole('exportAuditLog'), queryOf(auditQuerySchema), async (c) => {
    const query = c.req.valid('query');
    // Refuses a range too large for one export here, while the answer can still be a 400.
    const { entries, chunks } = await exportAudit(c.env.DB, query);
    const encoder = new TextEncoder();
    let headerSent = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(CSV_BOM + csvLines([CSV_HEADER])));
          return;
        }
        // A read failing midway errors the body (pull rejects), and the end line is never written:
        // some transports still end an errored body as if it were whole, and the end line is how
        // the file itself says it is complete.
        const next = await chunks.next();
        if (next.done) {
          controller.enqueue(encoder.encode(auditCsvEnd(entries)));
          return controller.close();
        }
        const rows = next.value.map((e) => [e.id, e.at, e.actorId, e.actorName, e.action, e.entity, e.entityId, JSON.stringify(e.changes), e.requestId]);
        controller.enqueue(encoder.encode(csvLines(rows)));
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    const name = ['audit', query.from, query.to].filter(Boolean).join('-');
    return c.body(body, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}.csv"` });
  });
