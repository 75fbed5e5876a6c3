import { mkdirSync, writeFileSync } from 'node:fs';
import { ensureDevVars } from '../dev-vars';
import { bin, run } from '../run';
import { benchBackup } from './backup';
import { benchInstantEdit, benchLighthouse, benchLoginToDashboard, benchPalette } from './browser';
import { measureBundle } from './bundle-size';
import { benchLive, measureLiveChunk } from './live';
import { benchLedgerImport } from './ledger-import';
import { benchMail } from './mail';
import { benchPassthrough } from './passthrough';
import { SCALE_URL, benchProvider, prepareScaleData, serveScaleApp } from './provider';
import { benchRestore } from './restore';
import { benchSla } from './sla';
import { benchUpload } from './upload';
import { benchWebhooks } from './webhooks';
import type { BenchRow } from './stats';

// `npm run bench`: every figure of docs/decisions.md#performance-budgets in one run, a table, bench/results.json, and a
// non-zero exit when any budget is missed. `npm run bench -- provider browser` runs only those
// sections (sizes, passthrough, restore, live, upload, import, webhooks, mail, provider, sla, backup, browser, lighthouse) and leaves results.json alone.
process.env.WRANGLER_SEND_METRICS ??= 'false';
process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';

const SECTIONS = ['sizes', 'passthrough', 'restore', 'live', 'upload', 'import', 'webhooks', 'mail', 'provider', 'sla', 'backup', 'browser', 'lighthouse'] as const;
const only = process.argv.slice(2);
const unknown = only.filter((name) => !(SECTIONS as readonly string[]).includes(name));
if (unknown.length) {
  console.error(`Unknown section(s): ${unknown.join(', ')}. Sections: ${SECTIONS.join(', ')}.`);
  process.exit(2);
}
const wanted = (key: (typeof SECTIONS)[number]) => only.length === 0 || only.includes(key);

const rows: BenchRow[] = [];
const section = async (key: (typeof SECTIONS)[number], name: string, work: () => Promise<BenchRow[] | BenchRow>) => {
  if (!wanted(key)) return;
  console.log(`\n▶ ${name}`);
  try {
    const result = await work();
    rows.push(...(Array.isArray(result) ? result : [result]));
  } catch (error) {
    rows.push({ figure: name, measured: `failed: ${(error as Error).message}`, budget: '', pass: false, value: Number.NaN });
  }
};

// The build copies .dev.vars (the JWT secret) next to the built Worker.
ensureDevVars();
await run(bin('vite'), ['build', '--logLevel', 'warn']);
await section('sizes', 'bundle sizes', async (): Promise<BenchRow[]> => [
  ...measureBundle().map((f) => ({
    figure: f.figure,
    measured: `${(f.bytes / 1000).toFixed(1)} kB`,
    budget: `≤ ${f.budget / 1000} kB`,
    pass: f.bytes <= f.budget,
    value: f.bytes,
    detail: f.detail,
  })),
  measureLiveChunk(),
]);
await section('passthrough', 'passthrough', benchPassthrough);
await section('restore', 'restore speed', benchRestore);
await section('live', 'live updates', benchLive);
await section('upload', 'attachment upload', benchUpload);
await section('import', 'ledger import', benchLedgerImport);
await section('webhooks', 'webhook delivery', benchWebhooks);
await section('mail', 'notification mail', benchMail);

if (wanted('provider') || wanted('sla') || wanted('backup') || wanted('browser') || wanted('lighthouse')) {
  await prepareScaleData();
  await section('provider', 'provider at scale', benchProvider);
  await section('sla', 'service levels at scale', benchSla);
  await section('backup', 'backup at scale', benchBackup);
  if (wanted('browser') || wanted('lighthouse')) {
    const app = await serveScaleApp();
    try {
      await section('browser', 'browser', async () => [await benchLoginToDashboard(SCALE_URL), await benchPalette(SCALE_URL), await benchInstantEdit(SCALE_URL)]);
      await section('lighthouse', 'lighthouse', () => benchLighthouse(SCALE_URL));
    } finally {
      await app.dispose();
    }
  }
}

console.log('');
console.table(rows.map(({ figure, measured, budget, pass }) => ({ figure, measured, budget, result: pass ? 'pass' : 'FAIL' })));
if (only.length === 0) {
  mkdirSync('bench', { recursive: true });
  writeFileSync('bench/results.json', `${JSON.stringify({ measuredAt: new Date().toISOString(), rows }, null, 2)}\n`);
}
const failed = rows.filter((row) => !row.pass);
console.log(failed.length ? `${failed.length} figure(s) over budget.` : 'Every figure is within its budget.');
process.exit(failed.length ? 1 : 0);
