import { env } from 'cloudflare:test';
import { expect, it } from 'vitest';
import { APP_AUDIENCE } from '../../src/shared/constants';

it("wrangler.toml's APP_AUDIENCE is the audience the login form sends", () => {
  expect(env.APP_AUDIENCE).toBe(APP_AUDIENCE);
});
