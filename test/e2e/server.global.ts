import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminPassword: string;
    /** The dist/ folder the running app was built into, for the size budgets. */
    distDir: string;
    /** The running app's LOCAL_STATE_DIR: `wrangler d1 execute DB --local --persist-to` it reaches its D1. */
    stateDir: string;
  }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

const waitFor = async (url: string, child: ChildProcess, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
};

/**
 * The environment `npm start` would get from a shell. Vitest sets NODE_ENV=test (and its own
 * VITEST* values) in this process; passed on, NODE_ENV=test makes `vite build` bundle React's
 * development build, so the browser tests would run a slower app than the one people use.
 */
const startEnv = () =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV' && name !== 'TEST' && !name.startsWith('VITEST')),
  );

// Build output, local state, history and reports stay behind; node_modules is linked, not copied.
const LEFT_OUT = new Set(['node_modules', 'dist', '.git', '.wrangler', 'test-results', 'bench', 'test']);

/**
 * A private copy of the working tree to build and serve from. `npm start` builds into dist/, so a
 * second run, or a developer's `npm start`, would otherwise replace the bundle this run serves
 * halfway through its tests; the copy also pins the sources the run started with.
 */
const snapshotOfProject = () => {
  const root = process.cwd();
  const copy = mkdtempSync(path.join(tmpdir(), 'staff-app-e2e-build-'));
  for (const entry of readdirSync(root)) {
    if (!LEFT_OUT.has(entry)) cpSync(path.join(root, entry), path.join(copy, entry), { recursive: true });
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
};

// What the Worker logs when a request fails on its side; the browser only sees the 500 or 502.
const SERVER_ERROR = /passthrough: target unreachable|provider: unhandled error|Uncaught|exceeded/;

/**
 * Prints the server's own error lines (with the lines after each, which hold the stack) once the
 * run ends, so a failure that shows in a test as a bare 502 can be traced from the run's output.
 */
const reportServerErrors = (output: string) => {
  const lines = output.split('\n');
  const shown = lines.flatMap((line, index) => (SERVER_ERROR.test(line) ? [lines.slice(index, index + 12).join('\n')] : []));
  if (shown.length) console.error(`The app logged ${shown.length} error(s) during the run:\n${shown.slice(0, 20).join('\n---\n')}`);
};

/**
 * Starts the app exactly as `npm start` does (build, migrate, seed, workerd), on a free port, from
 * a snapshot of the project and with a throwaway state folder, so the developer's build and local
 * data are never touched.
 */
export default async function startApp(project: TestProject) {
  const port = await freePort();
  const projectDir = snapshotOfProject();
  const stateDir = mkdtempSync(path.join(tmpdir(), 'staff-app-e2e-'));
  const adminPassword = 'e2e-admin-password';
  const child = spawn(path.join('node_modules', '.bin', 'tsx'), ['scripts/start.ts'], {
    cwd: projectDir,
    env: { ...startEnv(), PORT: String(port), LOCAL_STATE_DIR: stateDir, SEED_ADMIN_PASSWORD: adminPassword },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const cleanUp = () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    reportServerErrors(output);
    rmSync(stateDir, { recursive: true, force: true });
    rmSync(projectDir, { recursive: true, force: true });
  };

  const baseUrl = `http://localhost:${port}`;
  try {
    // Build, migrations and demo data take a while, longer when other runs share the machine.
    await waitFor(`${baseUrl}/login/`, child, 240_000);
  } catch (error) {
    console.error(output);
    cleanUp();
    throw error;
  }
  project.provide('baseUrl', baseUrl);
  project.provide('adminPassword', adminPassword);
  project.provide('distDir', path.join(projectDir, 'dist'));
  project.provide('stateDir', stateDir);

  return cleanUp;
}
