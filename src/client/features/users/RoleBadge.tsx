import { Badge } from '@mantine/core';
import { ROLES } from '../../../shared/permissions';
import type { Role } from '../../../shared/types';

const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', billing: 'Billing', staff: 'Staff' };
const ROLE_COLORS: Record<Role, string> = { admin: 'grape', billing: 'teal', staff: 'gray' };

export const ROLE_OPTIONS = ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }));

export function RoleBadge({ role }: { role: Role }) {
  return (
    <Badge color={ROLE_COLORS[role]} variant="light">
      {ROLE_LABELS[role]}
    </Badge>
  );
}
