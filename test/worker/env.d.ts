import type { D1Migration } from '@cloudflare/vitest-pool-workers';
import type { Env } from '../../src/worker/env';

declare global {
  namespace Cloudflare {
    interface Env extends ProjectEnv {
      TEST_MIGRATIONS: D1Migration[];
      RESTORE_DB: D1Database;
      MIGRATION_DB: D1Database;
    }
  }
}
type ProjectEnv = Env;
