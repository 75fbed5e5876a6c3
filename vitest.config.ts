import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Kept apart from vite.config.ts so the Cloudflare Vite plugin does not load in tests.
export default defineConfig(async () => ({
  test: {
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'client',
          environment: 'happy-dom',
          include: ['test/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['test/unit/setup.ts'],
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              // test/worker/d1-limits.ts counts each invocation's D1 calls with AsyncLocalStorage.
              compatibilityFlags: ['nodejs_als'],
              // Empty databases: backup restores are tested against one, migrations over old data on the other.
              d1Databases: { RESTORE_DB: 'restore-test', MIGRATION_DB: 'migration-test' },
              bindings: {
                JWT_SECRET: 'test-secret-do-not-use-in-production',
                // As deployed, whatever a local .dev.vars says; client-address tests cover local runs.
                TRUST_CF_CONNECTING_IP: 'true',
                TEST_MIGRATIONS: await readD1Migrations('./migrations'),
              },
            },
          }),
        ],
        test: {
          name: 'worker',
          include: ['test/worker/**/*.test.ts'],
          // Sign-in tests run many full PBKDF2 hashes; on a busy two-core machine 5 s is too tight.
          testTimeout: 30_000,
          // d1-limits.ts holds every test to Cloudflare's per-statement limits before anything runs.
          setupFiles: ['test/worker/d1-limits.ts', 'test/worker/apply-migrations.ts'],
          // A real HTTP upstream for the passthrough tests; its URL reaches them through inject().
          globalSetup: ['test/worker/upstream-server.global.ts'],
        },
      },
      {
        test: {
          // The ops scripts (restore, first admin, deploy check) in Node, driving wrangler's CLI
          // against throwaway local state, exactly as they drive it against Cloudflare.
          name: 'scripts',
          environment: 'node',
          include: ['test/scripts/**/*.test.ts'],
          // Each test starts wrangler several times, a few seconds each on two busy cores.
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/server.global.ts'],
          // One Chromium at a time: the machine has two cores and the app server needs one.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 150_000,
          // A poll that names no timeout waits as long as the fixtures' POLL: vitest's own 1 s is
          // less than a page takes to render its first answer while the machine is busy.
          expect: { poll: { timeout: 15_000 } },
        },
      },
    ],
  },
}));
