import { Badge, Group, Text } from '@mantine/core';
import { useSnapshot } from 'valtio';
import type { AuditEntity } from '../../../shared/types';
import { useAuth } from '../auth-store';
import { liveState, recordKey } from './bus';

/** Who else has this record open (and who is editing it), and who saved the version shown. */
export function RecordPresence({ entity, id }: { entity: AuditEntity; id: number }) {
  const { presence, updatedBy } = useSnapshot(liveState);
  const me = useAuth().user?.id;
  const key = recordKey(entity, id);
  const others = (presence[key] ?? []).filter((person) => person.userId !== me);
  const updater = updatedBy[key];
  return (
    <>
      <div role="status" aria-live="polite">
        {updater ? (
          <Text size="sm" c="dimmed" data-testid="updated-by">
            Updated by {updater}
          </Text>
        ) : null}
      </div>
      {others.length ? (
        <Group gap={6} data-testid="presence" aria-label="Also here">
          <Text size="sm" c="dimmed">
            Also here:
          </Text>
          {others.map((person) => (
            <Badge key={person.userId} variant="light" color={person.editing ? 'orange' : 'gray'} tt="none">
              {person.name}
              {person.editing ? ' (editing)' : ''}
            </Badge>
          ))}
        </Group>
      ) : null}
    </>
  );
}
