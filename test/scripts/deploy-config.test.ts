import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { deployProblems } from '../../scripts/predeploy-check';
import { bin } from '../../scripts/run';

// What `npm run deploy` would upload, checked with no network and no Cloudflare login:
// `wrangler deploy --dry-run` bundles the Worker and reads every binding of wrangler.toml, and
// `wrangler types` says what Env that config gives the code. Nothing here names today's
// bindings: a binding added to wrangler.toml or to Env must be added to the other.

/** What a [[migrations]] entry of wrangler.toml may create. */
interface Migration {
  new_classes?: string[];
  new_sqlite_classes?: string[];
  renamed_classes?: { from: string; to: string }[];
}

let folder: string;
const config = unstable_readConfig({ config: 'wrangler.toml' });

const wrangler = (args: string[]) =>
  new Promise<string>((resolve, reject) => {
    const child = spawn(bin('wrangler'), args, {
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', CLOUDFLARE_API_TOKEN: '', CLOUDFLARE_ACCOUNT_ID: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`wrangler ${args.join(' ')} failed:\n${output}`))));
  });

/** The members of `interface <name>` in a TypeScript file: name → type as written, and whether it carries @secret. */
const interfaceMembers = (file: string, text: string, name: string) => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const members = new Map<string, { type: string; secret: boolean }>();
  const visit = (node: ts.Node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === name && node.members.some(ts.isPropertySignature)) {
      for (const member of node.members) {
        if (!ts.isPropertySignature(member) || !member.type) continue;
        members.set(member.name.getText(source), {
          // The generated file names the Worker's classes through import("…"); the code imports them.
          type: member.type.getText(source).replace(/import\("[^"]*"\)\./g, '').replace(/\s+/g, ' '),
          secret: ts.getJSDocTags(member).some((tag) => tag.tagName.text === 'secret'),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return members;
};

/** Every binding name wrangler.toml declares, whatever its kind. */
const declaredBindings = () => [
  ...Object.keys(config.vars ?? {}),
  ...[
    ...config.d1_databases,
    ...config.r2_buckets,
    ...config.kv_namespaces,
    ...config.durable_objects.bindings.map((binding: { name: string }) => ({ binding: binding.name })),
    ...config.services,
    ...config.queues.producers,
    ...(config.assets?.binding ? [{ binding: config.assets.binding }] : []),
  ].map((binding) => binding.binding),
];

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'staff-app-deploy-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('wrangler deploy --dry-run', () => {
  let output: string;
  beforeAll(async () => {
    // The client bundle is not needed to check the Worker: a stand-in assets folder is enough,
    // and --config keeps wrangler off a config `vite build` may have left in .wrangler/deploy.
    const assets = path.join(folder, 'assets');
    await mkdir(assets);
    await writeFile(path.join(assets, 'index.html'), '<!doctype html>');
    output = await wrangler(['deploy', '--dry-run', '--outdir', path.join(folder, 'out'), '--config', 'wrangler.toml', '--assets', assets]);
  });

  it('bundles the Worker', async () => {
    expect(output).toMatch(/--dry-run: exiting now/);
    expect((await stat(path.join(folder, 'out', 'index.js'))).size).toBeGreaterThan(10_000);
  });

  it('gives the Worker every binding wrangler.toml declares', () => {
    expect(declaredBindings().length).toBeGreaterThan(0);
    for (const name of declaredBindings()) expect(output, name).toContain(`env.${name}`);
  });

  it('exports every Durable Object class it binds, and a migration creates each', async () => {
    const bundle = await readFile(path.join(folder, 'out', 'index.js'), 'utf8');
    const exported = new Set([...bundle.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((match) => (match[1] ?? '').split(',').map((item) => item.trim().split(/\s+as\s+/).pop() ?? '')));
    const created = new Set(
      config.migrations.flatMap((migration: Migration) => [...(migration.new_classes ?? []), ...(migration.new_sqlite_classes ?? []), ...(migration.renamed_classes ?? []).map((rename) => rename.to)]),
    );
    for (const { class_name: className, script_name: elsewhere } of config.durable_objects.bindings) {
      if (elsewhere) continue;
      expect(exported.has(className), `${className} exported`).toBe(true);
      expect(created.has(className), `${className} created by a migration`).toBe(true);
    }
  });
});

describe('wrangler types', () => {
  it('gives the Env the code uses: the same names and types, secrets apart', async () => {
    const code = interfaceMembers('env.ts', await readFile('src/worker/env.ts', 'utf8'), 'Env');
    // Secrets are not in wrangler.toml; handed over as an env file, wrangler types adds them.
    const secrets = [...code].filter(([, member]) => member.secret).map(([name]) => name);
    const secretsFile = path.join(folder, 'secrets.env');
    await writeFile(secretsFile, secrets.map((name) => `${name}=\n`).join(''));
    const generatedFile = path.join(folder, 'worker-configuration.d.ts');
    await wrangler(['types', generatedFile, '--config', 'wrangler.toml', '--include-runtime=false', '--strict-vars=false', '--env-file', secretsFile]);
    const generated = interfaceMembers('generated.d.ts', await readFile(generatedFile, 'utf8'), 'Env');

    expect(generated.size).toBeGreaterThan(0);
    const typesOf = (members: typeof code) => Object.fromEntries([...members].map(([name, { type }]) => [name, type]).sort());
    expect(typesOf(code)).toEqual(typesOf(generated));
  });
});

describe('npm run deploy', () => {
  it('refuses the placeholder database_id before building, and takes a real one', async () => {
    expect(deployProblems('wrangler.toml')).toEqual([expect.stringMatching(/^D1 binding DB: database_id is the placeholder\. Run `npx wrangler d1 create staff-app`/)]);
    const real = path.join(folder, 'wrangler.real.toml');
    const text = await readFile('wrangler.toml', 'utf8');
    await writeFile(real, text.replace(/database_id = "[0-]+"/, 'database_id = "5f3c1a9e-2b7d-4c1e-9a0f-1d2e3f4a5b6c"'));
    expect(deployProblems(real)).toEqual([]);
  });
});
