import { List, Text, VisuallyHidden } from '@mantine/core';
import type { AuditEntry } from '../../../shared/types';
import { describeChanges, type ValueFormats } from './describe';

/** An entry's changed fields, each as "Label: before → after" (a password only as "changed"). */
export function ChangeList({ entry, formats }: { entry: Pick<AuditEntry, 'action' | 'changes' | 'names'>; formats?: ValueFormats }) {
  const changes = describeChanges(entry, formats);
  if (changes.length === 0) return null;
  return (
    <List size="sm" spacing={2} listStyleType="none" data-testid="change-list">
      {changes.map((change) => (
        <List.Item key={change.field} style={{ overflowWrap: 'anywhere' }}>
          <Text span size="sm" fw={600}>
            {change.label}:
          </Text>{' '}
          {change.kind === 'changed' ? (
            <>
              <Text span size="sm">
                {change.before}
              </Text>
              <span aria-hidden="true"> → </span>
              <VisuallyHidden>changed to </VisuallyHidden>
            </>
          ) : null}
          <Text span size="sm">
            {change.after}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
