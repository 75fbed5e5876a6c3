import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    adminPassword: string;
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
 * Starts the app exactly as `npm start` does (build, migrate, seed, workerd), on a free port and
 * a throwaway state folder so the developer's local data is never touched.
 */
export default async function startApp(project: TestProject) {
  const port = await freePort();
  const stateDir = mkdtempSync(path.join(tmpdir(), 'staff-app-e2e-'));
  const adminPassword = 'e2e-admin-password';
  const child = spawn(path.join('node_modules', '.bin', 'tsx'), ['scripts/start.ts'], {
    env: { ...process.env, PORT: String(port), LOCAL_STATE_DIR: stateDir, SEED_ADMIN_PASSWORD: adminPassword },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const baseUrl = `http://localhost:${port}`;
  try {
    await waitFor(`${baseUrl}/login/`, child, 120_000);
  } catch (error) {
    console.error(output);
    throw error;
  }
  project.provide('baseUrl', baseUrl);
  project.provide('adminPassword', adminPassword);

  return () => {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    rmSync(stateDir, { recursive: true, force: true });
  };
}
