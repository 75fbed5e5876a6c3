import { Hono, type Context } from 'hono';
import { centsToDecimal, toCsv } from '../../../shared/csv';
import {
  approveLinesSchema,
  createLineSchema,
  createStatementSchema,
  isClosingLedger,
  isInvoiceSource,
  lineListQuerySchema,
  updateLineSchema,
  updateStatementSchema,
} from '../../../shared/schemas/invoices';
import { agingQuerySchema, paymentSchema, statementListQuerySchema } from '../../../shared/schemas/payments';
import { allLines, findLine, insertLine, listLines, updateLine } from '../db/invoices';
import { IMPORT_MAX_COLUMNS, IMPORT_MAX_ROWS, importListQuerySchema, importQuerySchema } from '../../../shared/schemas/imports';
import { companyIndex, importFile, importReport, listImports, undoImport } from '../db/imports';
import { approveDraftLines, deleteDraftLine } from '../db/line-drafts';
import { checkRows } from '../imports/check-rows';
import { readCsv } from '../imports/csv-reader';
import { readCsvBody } from '../http/csv-body';
import { closeMonth, listMonthInvoices } from '../db/month-close';
import { agingSummary, recordPayment, reversePayment } from '../db/payments';
import { written } from '../db/rows';
import { findStatement, generateStatement, listStatements, moveStatement } from '../db/statements';
import { NotFound } from '../errors/domain';
import { auditContext } from '../http/audit-context';
import { badRequest } from '../http/errors';
import { requireAuth, requireRole, type ProviderEnv } from '../http/auth';
import { issuerOf } from '../issuer';
import { foundOr404, readId } from '../http/params';
import { jsonBody, queryOf } from '../http/validate';
import { readIfMatch, versioned } from '../http/versions';

const sourceOf = (c: Context) => {
  const source = c.req.param('source') ?? '';
  if (!isInvoiceSource(source)) throw new NotFound(`Unknown invoice source '${source.slice(0, 40)}'`);
  return source;
};

const PERIOD_FORMAT = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The ledger and month of a close: only Autofi and 3D Tracking close months (GIFS bills by statements). */
const monthOf = (c: Context) => {
  const source = c.req.param('source') ?? '';
  const period = c.req.param('period') ?? '';
  if (!isClosingLedger(source)) throw new NotFound(`'${source.slice(0, 40)}' has no months to close`);
  if (!PERIOD_FORMAT.test(period)) throw badRequest('period must be a month as YYYY-MM', { period: ['Must be a month as YYYY-MM'] });
  return { ledger: source, period };
};

const CSV_HEADER = ['id', 'source', 'period', 'company', 'description', 'quantity', 'unit_price', 'amount', 'reference', 'status', 'statement_id'];

const statementsRole = requireRole('manageStatements');
const importRole = requireRole('importLines');
const linesRole = requireRole('editInvoiceLines');

export const invoiceRoutes = new Hono<ProviderEnv>()
  .use(requireAuth)
  .get('/gifs/statements', queryOf(statementListQuerySchema), async (c) => c.json(await listStatements(c.env.DB, c.req.valid('query'), issuerOf(c.env))))
  .get('/gifs/statements/aging', queryOf(agingQuerySchema), async (c) => c.json(await agingSummary(c.env.DB, issuerOf(c.env), c.req.valid('query').ledger)))
  .post('/gifs/statements', statementsRole, jsonBody(createStatementSchema), async (c) =>
    c.json(await generateStatement(c.env.DB, c.req.valid('json'), issuerOf(c.env), auditContext(c)), 201),
  )
  .get('/gifs/statements/:id', async (c) => versioned(c, foundOr404(await findStatement(c.env.DB, readId(c), issuerOf(c.env)), 'Statement')))
  .patch('/gifs/statements/:id', statementsRole, jsonBody(updateStatementSchema), async (c) => {
    const id = readId(c);
    const version = readIfMatch(c);
    return versioned(c, foundOr404(await moveStatement(c.env.DB, id, c.req.valid('json'), issuerOf(c.env), auditContext(c), version), 'Statement'));
  })
  .post('/gifs/statements/:id/payments', statementsRole, jsonBody(paymentSchema), async (c) => {
    const id = readId(c);
    foundOr404(await recordPayment(c.env.DB, id, c.req.valid('json'), issuerOf(c.env), auditContext(c)), 'Statement');
    return c.json(written(await findStatement(c.env.DB, id, issuerOf(c.env)), 'statement'), 201);
  })
  .delete('/gifs/statements/:id/payments/:paymentId', requireRole('reversePayments'), async (c) => {
    const id = readId(c);
    const paymentId = readId(c, 'paymentId');
    if (!(await reversePayment(c.env.DB, id, paymentId, auditContext(c)))) throw new NotFound('Payment not found');
    return c.json(written(await findStatement(c.env.DB, id, issuerOf(c.env)), 'statement'));
  })
  .post('/:source/periods/:period/close', statementsRole, async (c) => {
    const { ledger, period } = monthOf(c);
    return c.json({ invoices: await closeMonth(c.env.DB, ledger, period, issuerOf(c.env), auditContext(c)) }, 201);
  })
  .get('/:source/periods/:period/invoices', async (c) => {
    const { ledger, period } = monthOf(c);
    return c.json({ invoices: await listMonthInvoices(c.env.DB, ledger, period, issuerOf(c.env)) });
  })
  .get('/lines/:id', async (c) => versioned(c, foundOr404(await findLine(c.env.DB, readId(c)), 'Invoice line')))
  .patch('/lines/:id', linesRole, jsonBody(updateLineSchema), async (c) => {
    const id = readId(c);
    const version = readIfMatch(c);
    return versioned(c, foundOr404(await updateLine(c.env.DB, id, c.req.valid('json'), auditContext(c), version), 'Invoice line'));
  })
  .delete('/lines/:id', linesRole, async (c) => {
    foundOr404(await deleteDraftLine(c.env.DB, readId(c), auditContext(c)), 'Invoice line');
    return c.body(null, 204);
  })
  .post('/lines/approve', linesRole, jsonBody(approveLinesSchema), async (c) =>
    c.json({ approved: await approveDraftLines(c.env.DB, c.req.valid('json').ids, auditContext(c)) }),
  )
  .get('/imports', queryOf(importListQuerySchema), async (c) => c.json(await listImports(c.env.DB, c.req.valid('query'))))
  .delete('/imports/:batchId', importRole, async (c) => {
    foundOr404(await undoImport(c.env.DB, readId(c, 'batchId'), auditContext(c)), 'Import');
    return c.body(null, 204);
  })
  .post('/:source/lines/import', importRole, queryOf(importQuerySchema), async (c) => {
    const source = sourceOf(c);
    const { dryRun, fileName = '' } = c.req.valid('query');
    const { header, rows: records } = readCsv(await readCsvBody(c), IMPORT_MAX_ROWS, IMPORT_MAX_COLUMNS);
    const { rows, errors } = checkRows(header, records, await companyIndex(c.env.DB));
    if (dryRun === 'true') return c.json(await importReport(c.env.DB, source, rows, errors), 200);
    const outcome = await importFile(c.env.DB, source, fileName, rows, errors, auditContext(c));
    return outcome.imported ? c.json(outcome.imported, 201) : c.json(outcome.refused, 400);
  })
  .get('/:source/lines.csv', queryOf(lineListQuerySchema), async (c) => {
    const source = sourceOf(c);
    const { period, status } = c.req.valid('query');
    const lines = await allLines(c.env.DB, source, { period, status });
    const csv = toCsv(
      CSV_HEADER,
      lines.map((l) => [l.id, l.source, l.period, l.companyName, l.description, l.quantity, centsToDecimal(l.unitPriceCents), centsToDecimal(l.amountCents), l.reference, l.status, l.statementId]),
    );
    const name = [source, period, status].filter(Boolean).join('-');
    return c.body(csv, 200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}-lines.csv"` });
  })
  .get('/:source/lines', queryOf(lineListQuerySchema), async (c) => {
    const source = sourceOf(c);
    return c.json(await listLines(c.env.DB, source, c.req.valid('query')));
  })
  .post('/:source/lines', linesRole, jsonBody(createLineSchema), async (c) => {
    const source = sourceOf(c);
    return c.json(await insertLine(c.env.DB, source, c.req.valid('json'), auditContext(c)), 201);
  });
