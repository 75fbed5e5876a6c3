import { describe, expect, it } from 'vitest';
import { can, type Action } from '../../src/client/lib/permissions';
import type { Role } from '../../src/shared/types';

// DESIGN.md §6, row by row: what each role may do beyond what every signed-in user may.
const MATRIX: [Action, Record<Role, boolean>][] = [
  ['billing.edit', { staff: false, billing: true, admin: true }],
  ['users.manage', { staff: false, billing: false, admin: true }],
  ['lookups.manage', { staff: false, billing: false, admin: true }],
  ['audit.read', { staff: false, billing: false, admin: true }],
];

describe('can (DESIGN.md §6)', () => {
  it.each(MATRIX.flatMap(([action, roles]) => (Object.entries(roles) as [Role, boolean][]).map(([role, allowed]) => [role, action, allowed] as const)))(
    '%s may %s: %s',
    (role, action, allowed) => {
      expect(can(role, action)).toBe(allowed);
    },
  );

  it('gives a session without a role (stored before roles existed) nothing beyond the basics', () => {
    for (const [action] of MATRIX) {
      expect(can(null, action)).toBe(false);
      expect(can(undefined, action)).toBe(false);
    }
  });

  it('refuses a role it does not know, such as one a hand-edited session names', () => {
    expect(can('superuser' as Role, 'audit.read')).toBe(false);
    expect(can('ADMIN' as Role, 'users.manage')).toBe(false);
  });
});
