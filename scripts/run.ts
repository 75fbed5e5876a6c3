import { spawn } from 'node:child_process';
import path from 'node:path';

export const bin = (name: string) => path.join('node_modules', '.bin', name);

/** Runs a project tool to completion with its output shown; rejects when it fails. */
export const run = (command: string, args: string[]) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
