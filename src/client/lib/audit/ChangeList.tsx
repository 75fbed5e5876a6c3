import { List, Text, VisuallyHidden } from '@mantine/core';
import type { AuditEntry } from '../../../shared/types';
import type { RecordOption } from '../record-options';
import { MentionText } from '../ui/MentionText';
import { describeChanges, type ValueFormats } from './describe';

const NOBODY_AT_HAND: readonly RecordOption[] = [];

/**
 * An entry's changed fields, each as "Label: before → after" (a password only as "changed"). A
 * comment's or description's mentions read as people's names, as the comments show them; `people`
 * are those at hand, anyone else is looked up by id.
 */
export function ChangeList({
  entry,
  formats,
  people = NOBODY_AT_HAND,
}: {
  entry: Pick<AuditEntry, 'action' | 'changes' | 'names'>;
  formats?: ValueFormats;
  people?: readonly RecordOption[];
}) {
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
                <MentionText text={change.before} known={people} />
              </Text>
              <span aria-hidden="true"> → </span>
              <VisuallyHidden>changed to </VisuallyHidden>
            </>
          ) : null}
          <Text span size="sm">
            <MentionText text={change.after} known={people} />
          </Text>
        </List.Item>
      ))}
    </List>
  );
}
