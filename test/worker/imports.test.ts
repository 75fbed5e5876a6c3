import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MAX_COLUMNS } from '../../src/shared/schemas/imports';
import type { ImportBatch, ImportReport, ImportResult, InvoiceLine, LinePage, Page } from '../../src/shared/types';
import { api, expectConflict, expectError, readJson, signedIn } from './support';
import { RowsDiffer, companyIndex, importFile, importLines, importReport } from '../../src/worker/provider/db/imports';
import { checkRows } from '../../src/worker/provider/imports/check-rows';
import { readCsv } from '../../src/worker/provider/imports/csv-reader';

// Ledger imports (README "Ledger imports"): every rule and every bad input, in workerd on D1.

let billing: string;
let staff: string;
let companyName: string;
let companyCode: string;
let companyId: number;
let month = 0;

/** A month no other test here uses, so each one's lines and duplicates are its own. */
const freshPeriod = () => {
  month += 1;
  return `${2033 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
};

const send = (csv: string | Uint8Array, { dryRun = true, source = 'autofi', token = billing, type = 'text/csv', fileName = 'vendor.csv' } = {}) =>
  api(`invoices/${source}/lines/import?dryRun=${dryRun}&fileName=${encodeURIComponent(fileName)}`, { method: 'POST', token, body: csv, headers: { 'content-type': type } });
const check = async (csv: string) => {
  const res = await readJson<ImportReport>(await send(csv));
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const csvOf = (rows: string[], header = 'period,company,description,quantity,unit_price,reference') => [header, ...rows].join('\r\n');
const linesOf = async (period: string) =>
  (await readJson<LinePage>(await api(`invoices/autofi/lines?period=${period}&pageSize=200`, { token: billing }))).body.items;
const countLines = async () => (await env.DB.prepare('SELECT count(*) AS n FROM invoice_lines').first<number>('n')) ?? 0;

beforeAll(async () => {
  ({ token: billing } = await signedIn('billing'));
  ({ token: staff } = await signedIn('staff'));
  const admin = await signedIn('admin');
  companyName = `Import Vendor ${crypto.randomUUID().slice(0, 6)}`;
  companyCode = `IV${crypto.randomUUID().slice(0, 4)}`;
  const res = await api('companies', { method: 'POST', token: admin.token, json: { name: companyName, code: companyCode } });
  companyId = ((await res.json()) as { id: number }).id;
});

describe('checking a file (dry run)', () => {
  it('reads every row, writes nothing and previews the lines', async () => {
    const period = freshPeriod();
    const before = await countLines();
    const report = await check(csvOf([`${period},${companyName},Trackers,3,12.50,R-1`, `${period},${companyCode.toLowerCase()},SIMs,2,0.5,R-2`]));
    expect(report).toMatchObject({ rows: 2, valid: 2, duplicates: 0, errors: [] });
    expect(report.preview[0]).toMatchObject({ row: 1, period, companyId, description: 'Trackers', quantity: 3, unitPriceCents: 1250, amountCents: 3750, reference: 'R-1', duplicate: false });
    expect(report.preview[1]).toMatchObject({ companyId, unitPriceCents: 50, amountCents: 100 });
    expect(await countLines()).toBe(before);
  });

  it('takes columns in any order and case, semicolons or tabs, a BOM, CRLF or LF', async () => {
    const period = freshPeriod();
    const row = { period, company: companyName, description: 'Data', quantity: '4', unit_price: '1.25' };
    for (const separator of [',', ';', '\t']) {
      const header = ['Unit_Price', 'DESCRIPTION', 'quantity', 'Company', 'period'];
      const values = [row.unit_price, row.description, row.quantity, row.company, row.period];
      for (const eol of ['\r\n', '\n']) {
        const report = await check(`\uFEFF${header.join(separator)}${eol}${values.join(separator)}${eol}`);
        expect(report, JSON.stringify({ separator, eol })).toMatchObject({ rows: 1, valid: 1, errors: [] });
        expect(report.preview[0]).toMatchObject({ description: 'Data', quantity: 4, unitPriceCents: 125, reference: '' });
      }
    }
  });

  it('reads quoted fields with separators, doubled quotes and line breaks inside', async () => {
    const period = freshPeriod();
    const report = await check(csvOf([`${period},"${companyName}","Trackers, ""large""\r\nsecond line",1,"1,000.00",Q-1`, `${period},${companyName},"Plain",1,2.00,Q-2`]));
    expect(report.rows).toBe(2);
    expect(report.preview[0]?.description).toBe('Trackers, "large"\r\nsecond line');
    // The quoted price's comma is a thousands separator, not the field's end.
    expect(report.errors).toEqual([]);
    expect(report.preview[0]?.unitPriceCents).toBe(100_000);
    expect(report.preview[1]).toMatchObject({ row: 2, description: 'Plain', unitPriceCents: 200 });
  });

  it('names each fault on its row and field', async () => {
    const period = freshPeriod();
    const report = await check(
      csvOf([
        `${period},${companyName},Good,1,1.00,F-1`,
        `2033-13,Nobody Ltd,=HYPERLINK("x"),1.5,12.505,F-2`,
        `${period},${companyName},+cmd,-1,abc,@F-3`,
        `${period},${companyName},-2+3,1,-4.00,F-1`,
        `${period},${companyName},Short row`,
        `${period},${companyName},,1,1.00,F-6`,
      ]),
    );
    expect(report).toMatchObject({ rows: 6, valid: 1 });
    const byRow = (row: number) => Object.fromEntries(report.errors.filter((e) => e.row === row).map((e) => [e.field, e.message]));
    expect(byRow(1)).toEqual({});
    expect(byRow(2)).toEqual({
      period: 'Must be a month as YYYY-MM',
      company: 'Unknown company "Nobody Ltd"',
      description: 'Starts with "=": a spreadsheet would run it as a formula',
      quantity: 'Must be a whole number, 0 or more',
      unit_price: 'Must have at most 2 decimal places, such as 12.50',
    });
    expect(byRow(3)).toEqual({
      description: 'Starts with "+": a spreadsheet would run it as a formula',
      quantity: 'Must be a whole number, 0 or more',
      unit_price: 'Must be a decimal number such as 12.50',
      reference: 'Starts with "@": a spreadsheet would run it as a formula',
    });
    // A negative price is a credit, not a formula; a description starting with - is one.
    expect(byRow(4)).toEqual({ description: 'Starts with "-": a spreadsheet would run it as a formula', reference: 'The same reference as row 1' });
    expect(byRow(5)).toMatchObject({ row: 'Has 3 fields; the header has 6', quantity: 'Must be a whole number, 0 or more' });
    expect(byRow(6)).toEqual({ description: 'Required' });
    // What could not be read is previewed as the file has it.
    expect(report.preview[1]).toMatchObject({ quantity: null, quantityText: '1.5', unitPriceCents: null, unitPriceText: '12.505' });
  });

  it('holds text cells to the rules of typed text: the same messages, NFC and trimmed', async () => {
    const period = freshPeriod();
    const report = await check(
      csvOf([
        `${period},${companyName},invoice\u202Efdp.exe,1,1.00,T-1`,
        `${period},${companyName},Bell\u0007,1,1.00,T-2`,
        `${period},${companyName},Fine,1,1.00,T-\u202E3`,
        `${period},${companyName},Fine,1,1.00,"T-4\nsecond line"`,
        `${period},${companyName}\u2066,Fine,1,1.00,T-5`,
        `${period},${companyName},\u200b\u00a0,1,1.00,T-6`,
        `${period},${companyName},"  Cafe\u0301 \u200b","1","1.00","\u200bT-7\u00a0"`,
        `${period},${companyName},"Two\r\nlines\ttabbed",1,1.00,T-8`,
      ]),
    );
    const byRow = (row: number) => Object.fromEntries(report.errors.filter((e) => e.row === row).map((e) => [e.field, e.message]));
    expect(byRow(1)).toEqual({ description: 'Must not contain text direction control characters' });
    expect(byRow(2)).toEqual({ description: 'Contains characters that are not allowed' });
    expect(byRow(3)).toEqual({ reference: 'Must not contain text direction control characters' });
    expect(byRow(4)).toEqual({ reference: 'Contains characters that are not allowed' });
    expect(byRow(5)).toEqual({ company: 'Must not contain text direction control characters' });
    expect(byRow(6)).toEqual({ description: 'Required' });
    expect(byRow(7)).toEqual({});
    expect(byRow(8)).toEqual({});
    expect(report).toMatchObject({ rows: 8, valid: 2 });
    expect(report.preview[6]).toMatchObject({ description: 'Caf\u00e9', reference: 'T-7' });
    expect(report.preview[7]).toMatchObject({ description: 'Two\r\nlines\ttabbed' });
  });

  it('refuses a file it cannot read as a whole with 400 (or 413, 415)', async () => {
    const period = freshPeriod();
    for (const [csv, pattern] of [
      ['', /empty/],
      ['period,company,description,quantity', /Missing column: unit_price/],
      ['period,company,description,quantity,unit_price,price', /Unknown column: "price"/],
      ['period,company,description,quantity,unit_price,period', /Repeated column: period/],
      [csvOf([`${period},${companyName},"never closed,1,1.00,X`]), /never closed/],
    ] as const) {
      const error = await expectError(await send(csv), 400);
      expect(error.message).toMatch(pattern);
    }
    await expectError(await send(new Uint8Array([0x70, 0xff, 0xfe, 0x0a])), 400);
    expect((await send('a,b', { type: 'application/json' })).status).toBe(415);
    expect((await send('x'.repeat(5_000_001))).status).toBe(413);
  });

  it('refuses a header of 80,000 columns at once, naming the cap and no columns', async () => {
    const header = Array.from({ length: 80_000 }, (_, i) => `column_${i}`).join(',');
    const error = await expectError(await send(`${header}\r\n${'1,'.repeat(79_999)}1\r\n`), 400);
    expect(error.message).toBe('The header has more than 200 columns; an import takes at most 200');
    expect(error.errors).toEqual({ file: ['Too many columns'] });
  });

  it('takes 200 columns and refuses 201; names at most 20 unknown or repeated ones and counts the rest', async () => {
    const period = freshPeriod();
    const required = ['period', 'company', 'description', 'quantity', 'unit_price'];
    const extra = Array.from({ length: 195 }, (_, i) => `extra_${i}`);
    const row = [period, companyName, 'Wide', '1', '1.00', ...extra.map(() => 'x')].join(',');
    const error = await expectError(await send(csvOf([row], [...required, ...extra].join(','))), 400);
    const listed = /Unknown columns: (.*?) and 175 more\./.exec(error.message)?.[1]?.split(', ');
    expect(listed).toEqual(extra.slice(0, 20).map((name) => JSON.stringify(name)));
    expect(error.errors?.file?.[0]).toMatch(/and 175 more$/);
    const repeated = await expectError(await send(csvOf([row], [...required, ...extra.map((_, i) => `period${' '.repeat(i % 30)}`)].join(','))), 400);
    expect(repeated.message).toMatch(/Repeated column: period\./);
    const wider = await expectError(await send(csvOf([`${row},x`], [...required, ...extra, 'one_more'].join(','))), 400);
    expect(wider.message).toBe('The header has more than 200 columns; an import takes at most 200');
  });

  it('takes 10,000 rows and refuses 10,001', async () => {
    const period = freshPeriod();
    const rows = Array.from({ length: 10_001 }, (_, i) => `${period},${companyCode},Row ${i + 1},1,0.01,`);
    const ok = await check(csvOf(rows.slice(0, 10_000)));
    expect(ok).toMatchObject({ rows: 10_000, valid: 10_000, errors: [] });
    expect(ok.preview).toHaveLength(20);
    const error = await expectError(await send(csvOf(rows)), 400);
    expect(error.message).toBe('The file has more than 10,000 rows; split it');
  });
});

describe('spreadsheet headers and money', () => {
  it('takes Unit Price, unit price, unitprice and UNIT_PRICE as unit_price, and refuses two of them', async () => {
    const period = freshPeriod();
    for (const name of ['Unit Price', 'unit price', 'unitprice', 'UNIT_PRICE', ' Unit  Price ']) {
      const report = await check(csvOf([`${period},${companyName},Data,2,3.00,H-1`], `Period,Company,Description,Quantity,${name},Reference`));
      expect(report, name).toMatchObject({ rows: 1, valid: 1, errors: [] });
      expect(report.preview[0]).toMatchObject({ unitPriceCents: 300, amountCents: 600 });
    }
    const twice = await expectError(await send(csvOf([`${period},${companyName},Data,2,3.00,3.00`], 'period,company,description,quantity,Unit Price,unitprice')), 400);
    expect(twice.message).toMatch(/Repeated column: unit_price\./);
    const unknown = await expectError(await send(csvOf([`${period},${companyName},Data,2,3.00`], 'period,company,description,quantity,Unit Cost')), 400);
    expect(unknown.message).toMatch(/Missing column: unit_price\. Unknown column: "unit cost"\./);
  });

  it('reads a dollar sign and thousands separators: $1,250.00 is 125000 cents', async () => {
    const period = freshPeriod();
    const prices = ['$1,250.00', '1,250.00', '$1250', '-$5', '$-5.5', '$0.99', '1,000,000.00', '$12,345,678'];
    const report = await check(csvOf(prices.map((price, i) => `${period},${companyName},Priced,1,"${price}",M-${i}`)));
    expect(report.errors).toEqual([{ row: 8, field: 'unit_price', message: 'Too large' }]);
    expect(report.preview.map((line) => line.unitPriceCents)).toEqual([125_000, 125_000, 125_000, -500, -550, 99, 100_000_000, null]);
    expect(report.preview[0]).toMatchObject({ unitPriceText: '$1,250.00', amountCents: 125_000 });
  });

  it('refuses money it cannot read for certain, on its row', async () => {
    const period = freshPeriod();
    const bad = ['$1,25,0.00', '1.2.3', '1,2345.00', '12,50', '--3', '-$-3', '$$5', '$', '5$', '1,250.00.0', ',250', '1 250', 'USD 5'];
    const report = await check(csvOf(bad.map((price, i) => `${period},${companyName},Priced,1,"${price}",N-${i}`)));
    expect(report).toMatchObject({ rows: bad.length, valid: 0 });
    expect(report.errors).toEqual(bad.map((_, i) => ({ row: i + 1, field: 'unit_price', message: 'Must be a decimal number such as 12.50' })));
    const places = await check(csvOf([`${period},${companyName},Priced,1,"$1,250.005",P-1`]));
    expect(places.errors).toEqual([{ row: 1, field: 'unit_price', message: 'Must have at most 2 decimal places, such as 1250.00' }]);
  });
});

describe('a reference the ledger holds with other values', () => {
  const row = (period: string, ref: string, { company = companyName, description = `Line ${ref}`, quantity = '10', price = '12.50' } = {}) =>
    `${period},"${company}","${description}",${quantity},"${price}",${ref}`;

  it('is an error naming the ledger value and the file value; identical rows stay duplicates', async () => {
    const period = freshPeriod();
    const admin = await signedIn('admin');
    const other = `Other Vendor ${crypto.randomUUID().slice(0, 6)}`;
    expect((await api('companies', { method: 'POST', token: admin.token, json: { name: other, code: `OV${crypto.randomUUID().slice(0, 4)}` } })).status).toBe(201);
    const refs = ['V-1', 'V-2', 'V-3', 'V-4', 'V-5', 'V-6'];
    const first = await readJson<ImportResult>(await send(csvOf(refs.map((ref) => row(period, ref))), { dryRun: false }));
    expect(first.body).toMatchObject({ created: 6, duplicates: 0 });

    const corrected = csvOf([
      row(period, 'V-1', { company: other }),
      row(period, 'V-2', { description: 'Line V-2 corrected' }),
      row(period, 'V-3', { quantity: '12' }),
      row(period, 'V-4', { price: '$1,250.00' }),
      // The same line in other words: its company by code, its price with a dollar sign.
      row(period, 'V-5', { company: companyCode.toLowerCase(), price: '$12.50' }),
      row(period, 'V-6', { quantity: '11', price: '13' }),
      row(period, 'V-7'),
    ]);
    const report = await check(corrected);
    expect(report).toMatchObject({ rows: 7, valid: 2, duplicates: 1 });
    expect(report.errors).toEqual([
      { row: 1, field: 'company', message: `Already in the ledger with company ${JSON.stringify(companyName)}; the file says ${JSON.stringify(other)}` },
      { row: 2, field: 'description', message: 'Already in the ledger with description "Line V-2"; the file says "Line V-2 corrected"' },
      { row: 3, field: 'quantity', message: 'Already in the ledger with quantity 10; the file says 12' },
      { row: 4, field: 'unit_price', message: 'Already in the ledger with unit price $12.50; the file says $1,250.00' },
      { row: 6, field: 'quantity', message: 'Already in the ledger with quantity 10; the file says 11' },
      { row: 6, field: 'unit_price', message: 'Already in the ledger with unit price $12.50; the file says $13.00' },
    ]);
    expect(report.preview.map((line) => line.duplicate)).toEqual([false, false, false, false, true, false, false]);

    // The import itself refuses the file and writes nothing: no line, no batch.
    const batches = async () => (await env.DB.prepare('SELECT count(*) AS n FROM import_batches').first<number>('n')) ?? 0;
    const [linesBefore, batchesBefore] = [await countLines(), await batches()];
    const refused = await readJson<ImportReport & { message: string }>(await send(corrected, { dryRun: false }));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`Nothing was imported: 6 problems in the file (row 1: ${report.errors[0]?.message})`);
    expect(refused.body.errors).toEqual(report.errors);
    expect([await countLines(), await batches()]).toEqual([linesBefore, batchesBefore]);
    expect((await linesOf(period)).map((l) => l.quantity)).toEqual([10, 10, 10, 10, 10, 10]);
  });

  it('is refused by the write itself when the ledger line changes after the check', async () => {
    const period = freshPeriod();
    expect((await send(csvOf([row(period, 'W-1'), row(period, 'W-2')]), { dryRun: false })).status).toBe(201);
    const csv = csvOf([row(period, 'W-1'), row(period, 'W-2'), row(period, 'W-3')]);
    expect(await check(csv)).toMatchObject({ valid: 3, duplicates: 2, errors: [] });

    // Checked while identical, then someone edits the line before the write: the write refuses it.
    const { header, rows: records } = readCsv(csv, 10, IMPORT_MAX_COLUMNS);
    const checked = checkRows(header, records, await companyIndex(env.DB));
    await env.DB.prepare("UPDATE invoice_lines SET quantity = 9 WHERE period = ?1 AND reference = 'W-2'").bind(period).run();
    const before = await countLines();
    await expect(importLines(env.DB, 'autofi', 'raced.csv', checked.rows, { actorId: null, requestId: null })).rejects.toBeInstanceOf(RowsDiffer);
    expect(await countLines()).toBe(before);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM import_batches WHERE file_name = 'raced.csv'").first<number>('n')).toBe(0);

    // Through importFile, the refusal is the check made again, naming the edited value.
    const outcome = await importFile(env.DB, 'autofi', 'raced.csv', checked.rows, checked.errors, { actorId: null, requestId: null });
    expect(outcome.refused?.errors).toEqual([{ row: 2, field: 'quantity', message: 'Already in the ledger with quantity 9; the file says 10' }]);
    expect(await countLines()).toBe(before);
  });
});

describe('checking a large file', () => {
  it('checks 10,000 rows with 100-character CJK references, duplicates counted', async () => {
    const period = freshPeriod();
    // 100 characters of three UTF-8 bytes each: the references alone are some 3 MB.
    const reference = (i: number) => `${'参照番号'.repeat(25).slice(0, 100 - String(i).length)}${i}`;
    const rows = Array.from({ length: 10_000 }, (_, i) => `${period},${companyCode},Row ${i + 1},1,0.01,${reference(i)}`);
    expect(reference(0)).toHaveLength(100);
    const imported = await readJson<ImportResult>(await send(csvOf([rows[3], rows[9_998]] as string[]), { dryRun: false }));
    expect(imported.status, imported.text).toBe(201);
    const report = await check(csvOf(rows));
    expect(report).toMatchObject({ rows: 10_000, valid: 10_000, duplicates: 2, errors: [] });
    expect(report.preview[3]).toMatchObject({ reference: reference(3), duplicate: true });
    expect(report.preview[4]).toMatchObject({ reference: reference(4), duplicate: false });
    // No value bound on the way is over D1's 2,000,000 bytes, the import's nor the check's.
    let largest = 0;
    const recording = {
      prepare: (sql: string) => ({
        bind: (...values: unknown[]) => {
          for (const value of values) if (typeof value === 'string') largest = Math.max(largest, new TextEncoder().encode(value).byteLength);
          return env.DB.prepare(sql).bind(...values);
        },
      }),
      batch: (statements: D1PreparedStatement[]) => env.DB.batch(statements),
    } as unknown as D1Database;
    const { header, rows: records } = readCsv(csvOf(rows.map((row) => row.replace(period, freshPeriod()))), 10_000, IMPORT_MAX_COLUMNS);
    const checked = checkRows(header, records, await companyIndex(env.DB));
    expect((await importReport(recording, 'autofi', checked.rows, checked.errors)).valid).toBe(10_000);
    expect((await importLines(recording, 'autofi', 'cjk.csv', checked.rows, { actorId: null, requestId: null })).created).toBe(10_000);
    expect(largest).toBeGreaterThan(100_000);
    expect(largest).toBeLessThanOrEqual(2_000_000);
  });
});

describe('importing', () => {
  it('creates draft lines of one batch, skips references already there, and writes nothing the second time', async () => {
    const period = freshPeriod();
    const csv = csvOf([`${period},${companyName},Trackers,3,12.50,D-1`, `${period},${companyName},SIMs,2,0.50,D-2`, `${period},${companyName},No ref,1,1.00,`]);
    const first = await readJson<ImportResult>(await send(csv, { dryRun: false }));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ created: 3, duplicates: 0 });
    const lines = await linesOf(period);
    expect(lines.map((l) => [l.description, l.status, l.amountCents, l.companyId]).sort()).toEqual([
      ['No ref', 'draft', 100, companyId],
      ['SIMs', 'draft', 100, companyId],
      ['Trackers', 'draft', 3750, companyId],
    ]);
    const batchIds = await env.DB.prepare('SELECT DISTINCT import_batch_id AS b FROM invoice_lines WHERE period = ?1').bind(period).all<{ b: number }>();
    expect(batchIds.results).toEqual([{ b: first.body.batchId }]);
    const audit = await env.DB.prepare("SELECT actor_id, changes FROM audit_log WHERE entity = 'import' AND action = 'import' AND entity_id = ?1").bind(first.body.batchId).all<{ changes: string }>();
    expect(audit.results).toHaveLength(1);
    expect(JSON.parse(audit.results[0]?.changes ?? '{}')).toEqual({ source: [null, 'autofi'], fileName: [null, 'vendor.csv'], rows: [null, 3], created: [null, 3], duplicates: [null, 0] });

    // Rows with references are duplicates now; the row without one is new each time.
    expect(await check(csv)).toMatchObject({ rows: 3, valid: 3, duplicates: 2 });
    const second = await readJson<ImportResult>(await send(csv, { dryRun: false }));
    expect(second.body).toMatchObject({ created: 1, duplicates: 2 });
    expect(await linesOf(period)).toHaveLength(4);
  });

  it('imports the same file sent twice at once only once', async () => {
    const period = freshPeriod();
    const csv = csvOf(Array.from({ length: 50 }, (_, i) => `${period},${companyName},Line ${i},1,1.00,C-${i}`));
    const answers = await Promise.all([send(csv, { dryRun: false }), send(csv, { dryRun: false })]);
    const bodies = await Promise.all(answers.map(async (r) => (await r.json()) as ImportResult));
    expect(bodies.map((b) => b.created).sort((a, b) => a - b)).toEqual([0, 50]);
    expect(await linesOf(period)).toHaveLength(50);
  });

  it('writes nothing when any row is wrong: 400 with the check', async () => {
    const period = freshPeriod();
    const before = await countLines();
    const res = await readJson<ImportReport & { message: string }>(await send(csvOf([`${period},${companyName},Fine,1,1.00,E-1`, `${period},Unknown Co,Bad,1,1.00,E-2`]), { dryRun: false }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Nothing was imported: 1 problem in the file (row 2: Unknown company "Unknown Co")');
    expect(res.body).toMatchObject({ rows: 2, valid: 1, errors: [{ row: 2, field: 'company' }] });
    expect(await countLines()).toBe(before);
  });

  it('keeps each statement of a 10,000-row import within 100 bound parameters', async () => {
    const period = freshPeriod();
    const rows = Array.from({ length: 10_000 }, (_, i) => `${period},${companyCode},Row ${i + 1},${i % 7},0.${String(i % 100).padStart(2, '0')},B-${i}`);
    const res = await readJson<ImportResult>(await send(csvOf(rows), { dryRun: false }));
    expect(res.status).toBe(201);
    expect(res.body.created).toBe(10_000);
    // The same import made through a database that records what each statement binds.
    const bound: number[] = [];
    const sqlBytes: number[] = [];
    const recording = {
      prepare: (sql: string) => ({
        bind: (...values: unknown[]) => {
          bound.push(values.length);
          sqlBytes.push(new TextEncoder().encode(sql).length);
          return env.DB.prepare(sql).bind(...values);
        },
      }),
      batch: (statements: D1PreparedStatement[]) => env.DB.batch(statements),
    } as unknown as D1Database;
    const other = freshPeriod();
    const { header, rows: records } = readCsv(csvOf(rows.map((row) => row.replace(period, other))), 10_000, IMPORT_MAX_COLUMNS);
    const checked = checkRows(header, records, await companyIndex(env.DB));
    expect((await importLines(recording, 'autofi', 'recorded.csv', checked.rows, { actorId: null, requestId: null })).created).toBe(10_000);
    expect(bound.length).toBeGreaterThan(20);
    expect(Math.max(...bound)).toBeLessThanOrEqual(100);
    expect(Math.max(...sqlBytes)).toBeLessThanOrEqual(100_000);
    const sum = await env.DB.prepare('SELECT count(*) AS n, sum(amount_cents) AS total FROM invoice_lines WHERE period = ?1').bind(period).first<{ n: number; total: number }>();
    expect(sum).toEqual({ n: 10_000, total: Array.from({ length: 10_000 }, (_, i) => (i % 7) * (i % 100)).reduce((a, b) => a + b, 0) });
  });

  it('is for billing and admins only', async () => {
    await expectError(await send(csvOf([`2033-01,${companyName},X,1,1.00,`]), { token: staff }), 403);
    await expectError(await send('period\r\n', { source: 'nowhere' }), 404);
    await expectError(await api('invoices/autofi/lines/import?dryRun=maybe', { method: 'POST', token: billing, body: 'a', headers: { 'content-type': 'text/csv' } }), 400);
  });
});

describe('past imports and undo', () => {
  const importFile = async (period: string, refs: string[]) =>
    (await readJson<ImportResult>(await send(csvOf(refs.map((r) => `${period},${companyName},Undo me ${r},1,1.00,${r}`)), { dryRun: false, fileName: `undo-${period}.csv` }))).body;

  it('lists imports newest first with who, when, file name and counts', async () => {
    const period = freshPeriod();
    const batch = await importFile(period, ['L-1', 'L-2']);
    const page = (await readJson<Page<ImportBatch>>(await api('invoices/imports?source=autofi&pageSize=5', { token: staff }))).body;
    expect(page.items[0]).toMatchObject({ id: batch.batchId, source: 'autofi', fileName: `undo-${period}.csv`, rows: 2, created: 2, duplicates: 0, lines: 2, billedLines: 0, undoneAt: null });
    expect(page.items[0]?.userName).toMatch(/^Test User/);
    await expectError(await api('invoices/imports', { token: billing }), 400);
  });

  it('undoes an import while its lines are drafts, audited, and then it can be imported again', async () => {
    const period = freshPeriod();
    const batch = await importFile(period, ['U-1', 'U-2']);
    expect((await api(`invoices/imports/${batch.batchId}`, { method: 'DELETE', token: billing })).status).toBe(204);
    expect(await linesOf(period)).toHaveLength(0);
    const entry = await env.DB.prepare("SELECT changes FROM audit_log WHERE entity = 'import' AND action = 'delete' AND entity_id = ?1").bind(batch.batchId).first<string>('changes');
    expect(JSON.parse(entry ?? '{}')).toEqual({ lines: [2, 0] });
    expect((await expectConflict(await api(`invoices/imports/${batch.batchId}`, { method: 'DELETE', token: billing }))).detail).toBe('This import has been undone already');
    expect((await importFile(period, ['U-1', 'U-2'])).created).toBe(2);
  });

  it('refuses the undo once a line is approved, naming it, and deletes nothing', async () => {
    const period = freshPeriod();
    const batch = await importFile(period, ['A-1', 'A-2']);
    const [line] = (await linesOf(period)) as InvoiceLine[];
    expect((await api(`invoices/lines/${line?.id}`, { method: 'PATCH', token: billing, json: { status: 'approved' } })).status).toBe(200);
    const refused = await expectConflict(await api(`invoices/imports/${batch.batchId}`, { method: 'DELETE', token: billing }));
    expect(refused.detail).toBe(`Lines ${line?.id} (approved) of this import are no longer drafts; undo it only while every line is a draft`);
    expect(await linesOf(period)).toHaveLength(2);
    await expectError(await api('invoices/imports/99999999', { method: 'DELETE', token: billing }), 404);
    await expectError(await api(`invoices/imports/${batch.batchId}`, { method: 'DELETE', token: staff }), 403);
  });

  it('lets one of an undo and an approval sent at once win, never both', async () => {
    const period = freshPeriod();
    const batch = await importFile(period, ['R-1']);
    const [line] = await linesOf(period);
    const [undo, approve] = await Promise.all([
      api(`invoices/imports/${batch.batchId}`, { method: 'DELETE', token: billing }),
      api('invoices/lines/approve', { method: 'POST', token: billing, json: { ids: [line?.id] } }),
    ]);
    expect([
      [204, 409],
      [409, 200],
    ]).toContainEqual([undo.status, approve.status]);
  });
});
