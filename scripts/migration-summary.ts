/**
 * wrangler's `d1 migrations apply` output, reduced to one line. wrangler prints its status table
 * again after every migration it applies (eight tables for eight migrations); the person starting
 * the app only needs to know what was applied.
 */
export const summariseMigrations = (output: string) => {
  if (/No migrations to apply/i.test(output)) return 'Database: up to date, no migrations to apply.';
  const applied = [...new Set([...output.matchAll(/(\d{4}_[\w.-]+\.sql)\s*│\s*✅/gu)].map((match) => match[1]))];
  return `Database: applied ${applied.length} migration${applied.length === 1 ? '' : 's'} (${applied.join(', ')}).`;
};
