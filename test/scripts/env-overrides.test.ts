import { describe, expect, it } from 'vitest';
import { withEnvironment } from '../../scripts/env-overrides';

describe('withEnvironment', () => {
  const bindings = { ACCESS_TEAM_DOMAIN: '', ACCESS_AUD: '', APP_AUDIENCE: 'staff-app', JWT_SECRET: 'from-dev-vars', SOME_JSON: { a: 1 } };

  it('lets a variable set in the process environment win over .dev.vars and wrangler.toml', () => {
    const env = { ACCESS_TEAM_DOMAIN: 'https://team.cloudflareaccess.com', ACCESS_AUD: 'aud', JWT_SECRET: 'from-env' };
    expect(withEnvironment(bindings, env)).toEqual({ ...bindings, ...env });
  });

  it('keeps the declared value when the environment does not set it, and takes an empty one when it does', () => {
    expect(withEnvironment(bindings, {})).toEqual(bindings);
    expect(withEnvironment({ ...bindings, APP_AUDIENCE: 'x' }, { APP_AUDIENCE: '' }).APP_AUDIENCE).toBe('');
  });

  it('passes on no other variable of the environment, and leaves bindings that are not text alone', () => {
    const result = withEnvironment(bindings, { PATH: '/usr/bin', HOME: '/root', SOME_JSON: 'text' });
    expect(Object.keys(result).sort()).toEqual(Object.keys(bindings).sort());
    expect(result.SOME_JSON).toEqual({ a: 1 });
  });
});
