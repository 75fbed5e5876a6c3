import { describe, expect, it } from 'vitest';
import { PERMISSIONS, forbiddenMessage, may, type Permission } from '../../src/shared/permissions';
import type { Role } from '../../src/shared/types';

// The table of docs/architecture.md#roles-and-the-audit-log, written out: which roles hold each permission.
const EXPECTED: Record<Permission, Role[]> = {
  manageUsers: ['admin'],
  manageCompanies: ['admin'],
  manageTicketCategories: ['admin'],
  editInvoiceLines: ['billing', 'admin'],
  manageStatements: ['billing', 'admin'],
  reversePayments: ['admin'],
  correctOthersActivity: ['admin'],
  importLines: ['billing', 'admin'],
  readAuditLog: ['admin'],
  exportAuditLog: ['admin'],
  downloadBackups: ['admin'],
  deleteAnyAttachment: ['admin'],
  approveTimesheets: ['billing', 'admin'],
  reopenTimesheets: ['admin'],
  manageWebhooks: ['admin'],
  manageAnyApiToken: ['admin'],
  manageServiceLevels: ['admin'],
  readMailLog: ['admin'],
};

describe('may', () => {
  it.each(Object.entries(EXPECTED) as [Permission, Role[]][])('%s', (permission, roles) => {
    for (const role of ['staff', 'billing', 'admin'] as Role[]) expect(may(role, permission), role).toBe(roles.includes(role));
    expect(may(null, permission)).toBe(false);
    expect(may(undefined, permission)).toBe(false);
  });

  it('knows no permission the table above leaves out', () => {
    expect(Object.keys(PERMISSIONS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('names the missing role in the 403 message', () => {
    expect(forbiddenMessage('manageUsers')).toBe('You need the admin role to manage users');
    expect(forbiddenMessage('editInvoiceLines')).toBe('You need the billing or admin role to create or edit invoice lines');
  });
});
