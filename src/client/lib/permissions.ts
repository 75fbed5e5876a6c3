import type { Role } from '../../shared/types';
import { useAuth } from './auth-store';

/**
 * What a role may do beyond what every signed-in user may (DESIGN.md §6: reading everything,
 * tickets, comments, time, their own profile and password, backups). The provider enforces these;
 * the client only mirrors them to hide what would be refused.
 */
const ALLOWED = {
  /** Create and edit invoice lines; generate, issue and mark statements paid. */
  'billing.edit': ['admin', 'billing'],
  /** Create, edit, change the role of, deactivate users and reset their passwords. */
  'users.manage': ['admin'],
  /** Create, edit and delete companies and ticket categories. */
  'lookups.manage': ['admin'],
  /** The whole audit log and its CSV. */
  'audit.read': ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof ALLOWED;

/** Whether `role` may do `action`; no role (a session from before roles existed) may do none. */
export const can = (role: Role | null | undefined, action: Action) =>
  role !== null && role !== undefined && (ALLOWED[action] as readonly Role[]).includes(role);

/** Whether the signed-in user may do `action`. */
export const useCan = (action: Action) => can(useAuth().user?.role, action);
