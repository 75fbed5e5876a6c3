import { pathToFileURL } from 'node:url';
import { unstable_readConfig } from 'wrangler';

/**
 * What in a wrangler config would deploy a Worker that cannot work. The repository's
 * wrangler.toml carries the all-zero placeholder `database_id` so local runs and tests need no
 * Cloudflare account; deployed with it, every request fails on D1 (docs/operations.md).
 */
interface D1Entry {
  binding: string;
  database_name?: string;
  database_id?: string;
}

export const deployProblems = (configPath: string) => {
  const databases: D1Entry[] = unstable_readConfig({ config: configPath }).d1_databases;
  return databases
    .filter((database) => !database.database_id || /^[0-]+$/.test(database.database_id))
    .map((database) => `D1 binding ${database.binding}: database_id is the placeholder. Run \`npx wrangler d1 create ${database.database_name ?? 'staff-app'}\` and put the id it prints into wrangler.toml.`);
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = deployProblems(process.argv[2] ?? 'wrangler.toml');
  if (problems.length) {
    for (const problem of problems) console.error(`Not deploying: ${problem}`);
    process.exit(1);
  }
}
