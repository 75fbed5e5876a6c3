import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { DEMO_STAFF_EMAIL, DEMO_USER_PASSWORD } from '../demo-data';
import { withLocalEnv } from '../local-env';
import { bin, run } from '../run';
import { DEMO_ADMIN_EMAIL, demoAdminPassword, seed } from '../seed';
import { serveBuilt, waitUntilUp } from '../serve';
import { percentile, type BenchRow } from './stats';

// Outgoing notification mail (docs/operations.md#mail) on a fresh demo database served as `npm start`
// serves it. Each mail is queued in mail_outbox in the write's own batch and sent after commit
// through the MAIL send_email binding, which Miniflare turns into one .eml file per message under
// its temporary folder (`<os.tmpdir()>/miniflare-<random>/files/email/`). The bench points
// os.tmpdir() (TMPDIR) into its own state folder while Miniflare starts, so that folder is found
// without reading Miniflare's log, and counts the files: they are what leaves the Worker.
// Locally no Cron runs by itself: when mail is left queued, the bench runs the minute trigger's
// scheduled() handler once a minute, as Cloudflare would. Not through Miniflare's
// /cdn-cgi/handler/scheduled route: with the assets in front of the Worker that route reaches the
// asset router, which has no scheduled() handler, and answers 500 "exception".
const STATE_DIR = 'bench/.mail-state';
const PORT = 9733;
const BASE = `http://127.0.0.1:${PORT}`;
const LATENCY_MAILS = 40;
const BURST = 1_000;
const CONCURRENCY = 20;
const EVERY_MINUTE = '* * * * *';
/** How long the burst may wait for its mail after the last answer, minute-trigger retries included. */
const DEADLINE_MS = 8 * 60_000;
/** With no new file for this long after the burst, what is missing waits for the minute trigger. */
const SETTLED_MS = 10_000;

const call = async <T>(token: string | null, route: string, init: { method?: string; body?: unknown } = {}) => {
  const res = await fetch(`${BASE}/api/v1/${route}`, {
    method: init.method ?? 'GET',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  }).catch((error: unknown) => {
    // undici says only "fetch failed"; the reason is its cause.
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`${init.method ?? 'GET'} ${route}: ${(error as Error).message}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`);
  });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${route}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? null : await res.json()) as T;
};

const login = async (username: string, password: string) =>
  (await call<{ token: string }>(null, 'auth/login', { method: 'POST', body: { username, password, audience: 'staff-app' } })).token;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface SentFile {
  to: string;
  subject: string;
  messageId: string;
  /** When the file was written: the moment the message left the Worker. */
  at: number;
}

/**
 * The messages Miniflare's send_email binding wrote, read as they appear. A file is read once its
 * header block is complete; one caught mid-write is read again on the next scan.
 */
class Outbox {
  readonly files = new Map<string, SentFile>();
  /** How many messages carried each identity (recipient and subject: one notification each). */
  readonly counts = new Map<string, number>();
  private folder: string | null = null;

  constructor(private readonly tmpRoot: string) {}

  scan() {
    this.folder ??= this.find();
    if (!this.folder || !existsSync(this.folder)) return;
    for (const name of readdirSync(this.folder)) {
      if (!name.endsWith('.eml') || this.files.has(name)) continue;
      const file = path.join(this.folder, name);
      const text = readFileSync(file, 'utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) continue;
      const header = (field: string) => new RegExp(`^${field}: (.*)$`, 'im').exec(text.slice(0, end))?.[1]?.trim() ?? '';
      const sent = { to: header('To'), subject: header('Subject'), messageId: header('Message-ID'), at: statSync(file).mtimeMs };
      if (!sent.subject || !sent.messageId) continue;
      this.files.set(name, sent);
      const key = `${sent.to}\n${sent.subject}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    }
  }

  /** The first message sent with this recipient and subject, if any has been. */
  sentAt(to: string, subject: string) {
    let first: number | undefined;
    for (const file of this.files.values()) if (file.to === to && file.subject === subject && (first === undefined || file.at < first)) first = file.at;
    return first;
  }

  private find() {
    if (!existsSync(this.tmpRoot)) return null;
    const own = readdirSync(this.tmpRoot).filter((name) => name.startsWith('miniflare-'));
    if (own.length > 1) throw new Error(`more than one Miniflare folder in ${this.tmpRoot}: ${own.join(', ')}`);
    return own[0] ? path.join(this.tmpRoot, own[0], 'files', 'email') : null;
  }
}

/** Starts the app with os.tmpdir() inside the bench's state folder, so its sent mail lands there. */
const serveWithMailIn = async (tmpRoot: string) => {
  mkdirSync(tmpRoot, { recursive: true });
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = tmpRoot;
  try {
    return await serveBuilt({ port: PORT, stateDir: STATE_DIR, quiet: true });
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
};

interface Ticket {
  id: number;
}

const subjectOf = (ticket: Ticket, title: string) => `[#${ticket.id}] ${title}`;

export const benchMail = async (): Promise<BenchRow[]> => {
  rmSync(STATE_DIR, { recursive: true, force: true });
  const previousState = process.env.LOCAL_STATE_DIR;
  process.env.LOCAL_STATE_DIR = STATE_DIR;
  try {
    await run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', STATE_DIR]);
    await withLocalEnv((env) => seed(env));
    const tmpRoot = path.resolve(STATE_DIR, 'tmp');
    const app = await serveWithMailIn(tmpRoot);
    try {
      await waitUntilUp(`${BASE}/login/`);
      const worker = await app.getWorker();
      const minuteTrigger = async () => {
        const { outcome } = await worker.scheduled({ cron: EVERY_MINUTE });
        if (outcome !== 'ok') throw new Error(`the minute trigger ended ${outcome}`);
      };
      return await measure(new Outbox(tmpRoot), minuteTrigger);
    } finally {
      await app.dispose();
    }
  } finally {
    if (previousState === undefined) delete process.env.LOCAL_STATE_DIR;
    else process.env.LOCAL_STATE_DIR = previousState;
    // Nothing of the run is kept: the folder is not git-ignored, and Miniflare's mail went with it.
    rmSync(STATE_DIR, { recursive: true, force: true });
  }
};

const measure = async (outbox: Outbox, minuteTrigger: () => Promise<void>): Promise<BenchRow[]> => {
  const token = await login(DEMO_ADMIN_EMAIL, demoAdminPassword());
  // The assignee: an active staff member whose `assigned` notifications are mailed at once.
  const people = await call<{ items: { id: number; email: string; isActive: boolean }[] }>(token, `users?q=${encodeURIComponent(DEMO_STAFF_EMAIL)}`);
  const assignee = people.items.find((person) => person.email === DEMO_STAFF_EMAIL && person.isActive);
  if (!assignee) throw new Error(`no active ${DEMO_STAFF_EMAIL} in the demo data`);
  const theirs = await login(DEMO_STAFF_EMAIL, DEMO_USER_PASSWORD);
  const settings = await call<Record<string, string>>(theirs, 'users/me/notification-settings');
  if (settings.assigned !== 'instant') await call(theirs, 'users/me/notification-settings', { method: 'PUT', body: { ...settings, assigned: 'instant' } });

  const assign = (title: string) => call<Ticket>(token, 'tickets', { method: 'POST', body: { title, assigneeId: assignee.id } });

  // Commit → mail sent: from the API's answer to the moment the message's file was written.
  const latencies: number[] = [];
  for (let i = 0; i < LATENCY_MAILS; i++) {
    const title = `Mail latency ${i}`;
    const ticket = await assign(title);
    const committed = Date.now();
    const deadline = committed + 30_000;
    let at: number | undefined;
    while ((at = outbox.sentAt(DEMO_STAFF_EMAIL, subjectOf(ticket, title))) === undefined && Date.now() < deadline) {
      await sleep(5);
      outbox.scan();
    }
    if (i % 10 === 0) console.log(`  latency: ${i + 1} of ${LATENCY_MAILS}`);
    if (at !== undefined) latencies.push(Math.round(at - committed));
  }
  const p95 = percentile(latencies, 95);
  console.log(`  latency: p95 ${p95} ms, p50 ${percentile(latencies, 50)} ms of ${latencies.length}`);

  // A burst of 1,000 assignments, 20 requests in flight: every mail sent, none twice.
  const expected = new Set<string>();
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < BURST) {
      const i = next++;
      const title = `Mail burst ${i}`;
      expected.add(subjectOf(await assign(title), title));
      if ((i + 1) % 200 === 0) {
        outbox.scan();
        console.log(`  burst: ${i + 1} of ${BURST} written, ${sentOf(outbox, expected)} sent`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const answered = Date.now();
  const deadline = answered + DEADLINE_MS;

  // What the writes sent after commit; what is left waits for the minute trigger.
  let lastCount = -1;
  let lastChange = Date.now();
  let triggers = 0;
  let leftAfterCommit: MailRow[] = [];
  let triggerFrom = Number.POSITIVE_INFINITY;
  let nextTrigger = Number.POSITIVE_INFINITY;
  while (Date.now() < deadline) {
    outbox.scan();
    const count = sentOf(outbox, expected);
    if (count >= BURST) break;
    if (count !== lastCount) [lastCount, lastChange] = [count, Date.now()];
    if (triggers === 0 && nextTrigger === Number.POSITIVE_INFINITY && Date.now() - lastChange >= SETTLED_MS) {
      leftAfterCommit = (await mailLog(token, expected)).filter((row) => row.status !== 'sent');
      const why = [...new Set(leftAfterCommit.map((row) => `${row.status}, ${row.attempts} attempt(s)${row.lastError ? `: ${row.lastError}` : ''}`))];
      console.log(`  ${BURST - count} not sent after commit (${why.join('; ') || 'the outbox shows them sent'}): running the minute trigger once a minute`);
      nextTrigger = Date.now();
    }
    if (Date.now() >= nextTrigger) {
      triggerFrom = Math.min(triggerFrom, Date.now());
      await minuteTrigger();
      triggers++;
      nextTrigger += 60_000;
    }
    await sleep(50);
  }
  // A late second copy would show here.
  await sleep(2_000);
  outbox.scan();

  const ours = [...outbox.files.values()].filter((file) => file.to === DEMO_STAFF_EMAIL && expected.has(file.subject));
  const sent = sentOf(outbox, expected);
  const twice = [...expected].filter((subject) => (outbox.counts.get(`${DEMO_STAFF_EMAIL}\n${subject}`) ?? 0) > 1).length;
  const messageIds = new Set(ours.map((file) => file.messageId)).size;
  const last = Math.max(...ours.map((file) => file.at));
  const byTrigger = ours.filter((file) => file.at >= triggerFrom).length;

  // The outbox as the admin reads it: one row per notification, each sent once.
  const rows = await mailLog(token, expected);
  const rowsSent = rows.filter((row) => row.status === 'sent').length;
  const retried = rows.filter((row) => row.attempts > 1).length;

  const allSent = `${((last - started) / 1000).toFixed(1)} s after the burst began, ${Math.round(last - answered)} ms after its last answer`;
  const failedFirst = leftAfterCommit.filter((row) => row.attempts > 0).length;
  const retries = triggers
    ? `; ${leftAfterCommit.length} left queued after commit (${failedFirst} of them after a failed send), ${byTrigger} then sent by the minute trigger (${triggers} run${triggers === 1 ? '' : 's'})`
    : '; none left for the minute trigger';
  return [
    {
      figure: 'notification mail: commit → mail sent p95',
      measured: `${p95} ms (${latencies.length} mails, p50 ${percentile(latencies, 50)} ms)`,
      budget: '≤ 2000 ms',
      pass: latencies.length === LATENCY_MAILS && p95 <= 2_000,
      value: p95,
    },
    {
      figure: `notification mail: burst of ${BURST} assignments, ${CONCURRENCY} at a time`,
      measured:
        `${sent} sent, ${twice} twice (${ours.length} messages, ${messageIds} Message-IDs; outbox ${rowsSent} of ${rows.length} sent, ${retried} retried); ` +
        `${sent ? `all sent ${allSent}` : 'none sent'}${retries}`,
      budget: `${BURST} sent, 0 twice`,
      pass: sent === BURST && twice === 0 && ours.length === BURST && rowsSent === BURST && rows.length === BURST,
      value: sent,
    },
  ];
};

/** How many of the expected subjects have been sent to the assignee at least once. */
const sentOf = (outbox: Outbox, expected: Set<string>) => [...expected].filter((subject) => outbox.counts.has(`${DEMO_STAFF_EMAIL}\n${subject}`)).length;

interface MailRow {
  id: number;
  to: string;
  subject: string;
  status: string;
  attempts: number;
  lastError: string | null;
}

/** The outbox rows of the expected mails, every status, from the admin's mail log. */
const mailLog = async (token: string, expected: Set<string>) => {
  const rows: MailRow[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await call<{ items: MailRow[]; total: number }>(token, `settings/mail?page=${page}&pageSize=200`);
    rows.push(...items.filter((row) => row.to === DEMO_STAFF_EMAIL && expected.has(row.subject)));
    if (page * 200 >= total || items.length === 0) break;
  }
  return rows;
};
