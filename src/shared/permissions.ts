/** Every role, most powerful first. Here rather than with the user schemas: the sign-in page needs it, not yup. */
export const ROLES = ['admin', 'billing', 'staff'] as const;
/** What a user may do (docs/architecture.md#roles-and-the-audit-log): staff < billing < admin. */
export type Role = (typeof ROLES)[number];

/**
 * What each role may do beyond what every role may (docs/architecture.md#roles-and-the-audit-log). The provider enforces these
 * (a 403 whose message is built from `action`); the client reads the same table to hide what the
 * signed-in role cannot do.
 */
export const PERMISSIONS = {
  manageUsers: { roles: ['admin'], action: 'manage users' },
  manageCompanies: { roles: ['admin'], action: 'change companies' },
  manageTicketCategories: { roles: ['admin'], action: 'change ticket categories' },
  editInvoiceLines: { roles: ['billing', 'admin'], action: 'create or edit invoice lines' },
  manageStatements: { roles: ['billing', 'admin'], action: 'create, issue or mark statements paid' },
  reversePayments: { roles: ['admin'], action: 'reverse payments' },
  correctOthersActivity: { roles: ['admin'], action: "edit or delete other people's comments and time" },
  importLines: { roles: ['billing', 'admin'], action: 'import invoice lines' },
  readAuditLog: { roles: ['admin'], action: 'read the whole audit log' },
  exportAuditLog: { roles: ['admin'], action: 'export the audit log' },
  downloadBackups: { roles: ['admin'], action: 'download backups' },
  deleteAnyAttachment: { roles: ['admin'], action: "delete other people's files" },
  approveTimesheets: { roles: ['billing', 'admin'], action: "approve or reject other people's weeks" },
  reopenTimesheets: { roles: ['admin'], action: 'reopen approved weeks' },
  manageWebhooks: { roles: ['admin'], action: 'manage webhooks' },
  manageAnyApiToken: { roles: ['admin'], action: "see or remove other people's API tokens" },
  manageServiceLevels: { roles: ['admin'], action: 'change calendars and service-level policies' },
  readMailLog: { roles: ['admin'], action: 'read the mail log' },
} as const satisfies Record<string, { roles: readonly Role[]; action: string }>;

export type Permission = keyof typeof PERMISSIONS;

export const may = (role: Role | null | undefined, permission: Permission) =>
  role != null && (PERMISSIONS[permission].roles as readonly Role[]).includes(role);

/** The 403 message: names the role the caller lacks and what it is for. */
export const forbiddenMessage = (permission: Permission) => {
  const { roles, action } = PERMISSIONS[permission];
  return `You need the ${roles.join(' or ')} role to ${action}`;
};
