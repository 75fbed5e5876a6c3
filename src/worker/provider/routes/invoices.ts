import { Hono, type Context } from 'hono';
import { centsToDecimal, toCsv } from '../../../shared/csv';
import {
  INVOICE_SOURCES,
  createLineSchema,
  createStatementSchema,
  lineListQuerySchema,
  updateLineSchema,
  updateStatementSchema,
  type InvoiceSource,
} from '../../../shared/schemas/invoices';
import { listQuerySchema } from '../../../shared/schemas/list';
import { allLines, findLine, insertLine, listLines, updateLine } from '../db/invoices';
import { findStatement, generateStatement, listStatements, moveStatement } from '../db/statements';
import { auditContext } from '../http/audit-context';
import { requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { notFound } from '../http/errors';
import { issuerOf } from '../http/issuer';
import { foundOr404, readId } from '../http/params';
import { readBody, readQuery } from '../http/validate';
import { readIfMatch, versioned } from '../http/versions';

const sourceOf = (c: Context) => {
  const source = c.req.param('source');
  if (!INVOICE_SOURCES.includes(source as InvoiceSource)) throw notFound(`Unknown invoice source '${String(source).slice(0, 40)}'`);
  return source as InvoiceSource;
};

const CSV_HEADER = ['id', 'source', 'period', 'company', 'description', 'quantity', 'unit_price', 'amount', 'reference', 'status', 'statement_id'];

const statementsRole = requireRole('manageStatements');
const linesRole = requireRole('editInvoiceLines');

export const invoiceRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/gifs/statements', async (c) => c.json(await listStatements(c.env.DB, await readQuery(c, listQuerySchema))))
  .post('/gifs/statements', statementsRole, async (c) => {
    const request = await readBody(c, createStatementSchema);
    return c.json(await generateStatement(c.env.DB, request, issuerOf(c.env), auditContext(c)), 201);
  })
  .get('/gifs/statements/:id', async (c) => versioned(c, foundOr404(await findStatement(c.env.DB, readId(c), issuerOf(c.env)), 'Statement')))
  .patch('/gifs/statements/:id', statementsRole, async (c) => {
    const id = readId(c);
    const version = readIfMatch(c);
    const changes = await readBody(c, updateStatementSchema);
    return versioned(c, foundOr404(await moveStatement(c.env.DB, id, changes, issuerOf(c.env), auditContext(c), version), 'Statement'));
  })
  .get('/lines/:id', async (c) => versioned(c, foundOr404(await findLine(c.env.DB, readId(c)), 'Invoice line')))
  .patch('/lines/:id', linesRole, async (c) => {
    const id = readId(c);
    const version = readIfMatch(c);
    return versioned(c, foundOr404(await updateLine(c.env.DB, id, await readBody(c, updateLineSchema), auditContext(c), version), 'Invoice line'));
  })
  .get('/:source/lines.csv', async (c) => {
    const source = sourceOf(c);
    const { period, status } = await readQuery(c, lineListQuerySchema);
    const lines = await allLines(c.env.DB, source, { period, status });
    const csv = toCsv(
      CSV_HEADER,
      lines.map((l) => [l.id, l.source, l.period, l.companyName, l.description, l.quantity, centsToDecimal(l.unitPriceCents), centsToDecimal(l.amountCents), l.reference, l.status, l.statementId]),
    );
    const name = [source, period, status].filter(Boolean).join('-');
    return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}-lines.csv"` });
  })
  .get('/:source/lines', async (c) => {
    const source = sourceOf(c);
    return c.json(await listLines(c.env.DB, source, await readQuery(c, lineListQuerySchema)));
  })
  .post('/:source/lines', linesRole, async (c) => {
    const source = sourceOf(c);
    return c.json(await insertLine(c.env.DB, source, await readBody(c, createLineSchema), auditContext(c)), 201);
  });
