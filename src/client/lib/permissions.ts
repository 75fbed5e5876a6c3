import { may, type Permission } from '../../shared/permissions';
import { useAuth } from './auth-store';

/**
 * Whether the signed-in user may do `permission`, from the table the provider enforces
 * (src/shared/permissions.ts). Pages ask this and hide what would be refused; a session without a
 * role may do only what every role may.
 */
export const useCan = (permission: Permission) => may(useAuth().user?.role, permission);
