import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { summariseMigrations } from '../../scripts/migration-summary';
import { bin, runCaptured } from '../../scripts/run';
import { disconnectFilter, printRuntimeOutput } from '../../scripts/runtime-output';

// workerd's report of a browser that closed a request mid-response (kj's exception format).
const DISCONNECT_TRACE = [
  'workerd/server/server.c++:4903: error: Uncaught exception: kj/async-io-unix.c++:186: disconnected: ::writev(fd, iov.begin(), count): Broken pipe; iovCount = 1',
  'stack: 5e4b1c0 5e4a8f3 3a1c2d4 3a1b9e0 5e6f2a1',
  '  kj/async-io-unix.c++:186',
];
const GENUINE = 'workerd/io/worker.c++:2105: error: Uncaught TypeError: Cannot read properties of undefined (reading "id")';

describe('npm start output', () => {
  const state = mkdtempSync(join(tmpdir(), 'start-output-'));
  afterAll(() => rmSync(state, { recursive: true, force: true }));

  it('prints the migration result once, from what wrangler printed eight times', { timeout: 180_000 }, async () => {
    const apply = () => runCaptured(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state]);
    const first = await apply();
    // wrangler's own output repeats its status table after each migration.
    expect(first.match(/│ 0001_initial\.sql/g)?.length ?? 0).toBeGreaterThan(2);
    const summary = summariseMigrations(first);
    expect(summary.split('\n')).toHaveLength(1);
    expect(summary).toMatch(/^Database: applied \d+ migrations \(0001_initial\.sql, .*\)\.$/);
    expect(summary.match(/0001_initial\.sql/g)).toHaveLength(1);
    expect(summariseMigrations(await apply())).toBe('Database: up to date, no migrations to apply.');
  });

  it('keeps a failed migration run whole, so its error shows', { timeout: 60_000 }, async () => {
    await expect(runCaptured(bin('wrangler'), ['d1', 'migrations', 'apply', 'NO_SUCH_DB', '--local', '--persist-to', state])).rejects.toThrow(/NO_SUCH_DB/);
  });

  it('seeds without warnings about the live channel, which the seed never uses', { timeout: 240_000 }, async () => {
    const seeding = mkdtempSync(join(tmpdir(), 'start-seed-'));
    try {
      // `npm start`'s steps before the build: migrations, then the demo data through the local bindings.
      const output = await new Promise<string>((resolve, reject) =>
        execFile(bin('tsx'), ['scripts/prepare-local.ts'], { env: { ...process.env, LOCAL_STATE_DIR: seeding } }, (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stdout}${stderr}`)) : resolve(stdout + stderr),
        ),
      );
      expect(output).toContain('Seeded the demo admin and the demo data.');
      expect(output).not.toMatch(/internal Durable Objects/);
      expect(output).not.toMatch(/no such Durable Object class/);
      expect(output).not.toMatch(/WARNING/);
    } finally {
      rmSync(seeding, { recursive: true, force: true });
    }
  });

  it('drops disconnect traces and passes every other line', () => {
    const keep = disconnectFilter();
    const lines = ['{"route":"/api/v1/tickets","status":200}', ...DISCONNECT_TRACE, GENUINE, '  at handler (index.js:10:5)', ...DISCONNECT_TRACE];
    expect(lines.filter(keep)).toEqual(['{"route":"/api/v1/tickets","status":200}', GENUINE, '  at handler (index.js:10:5)']);
  });

  it("prints workerd's streams through the filter", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const logs = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const [stdout, stderr] = [new PassThrough(), new PassThrough()];
    printRuntimeOutput(stdout, stderr);
    stdout.end('{"status":200}\n');
    stderr.end(`${DISCONNECT_TRACE.join('\n')}\n${GENUINE}\n`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logs.mock.calls).toEqual([['{"status":200}']]);
    expect(errors.mock.calls).toEqual([[GENUINE]]);
    errors.mockRestore();
    logs.mockRestore();
  });
});
