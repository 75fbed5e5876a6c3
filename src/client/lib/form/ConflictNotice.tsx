import { Alert, Button, Group, Radio, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import type { AuditAction, AuditEntity, AuditEntry } from '../../../shared/types';
import { useAudit } from '../audit/api';
import { ChangeList } from '../audit/ChangeList';
import { actorOf, fieldLabel, formatValue, type ValueFormats } from '../audit/describe';
import { formatDateTime } from '../format';
import type { Choice, Clash } from './changes';

// A long description shows its start: enough to tell the two versions apart.
const SHOWN_CHARS = 160;
const shown = (text: string) => (text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text);

/** Field → [the value the form was loaded with, the value they saved]. */
export type Changes = Record<string, [unknown, unknown]>;

// A row's entries share its record's history (a ticket's comment edits): enough of the newest to find the one that saved the row.
const ROW_ENTRIES = 20;

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Whether an entry saved the values `changes` ends with: it names at least one of them, and no other value for any. */
const savedThese = (entry: AuditEntry, changes: Changes) => {
  const named = Object.keys(changes).filter((field) => field in entry.changes);
  return named.length > 0 && named.every((field) => sameValue(entry.changes[field]?.[1], changes[field]?.[1]));
};

interface ConflictNoticeProps {
  entity: AuditEntity;
  entityId: number;
  /**
   * A row inside the record (a ticket's comment or time entry): the history entries its saves
   * write, and what changed between the version the form was loaded with and theirs. Without
   * it, the record's newest update is the change shown.
   */
  row?: { action: AuditAction; changes: Changes };
  /** A save was refused over it (412); otherwise it showed while the person was still editing. */
  refused: boolean;
  busy: boolean;
  formats?: ValueFormats;
  /** The fields both people changed; for each the person picks whose value the overwrite keeps. */
  clashes: Clash[];
  choices: Partial<Record<string, Choice>>;
  onChoose: (field: string, choice: Choice) => void;
  onReload: () => void;
  onOverwrite: () => void;
}

/**
 * Shown in a form whose record someone else saved while it was open, as soon as the live channel
 * tells of it or when a save is refused with 412: who saved it and when (from its history), what
 * they changed, with the two ways on. The person's own edits stay in the form until they choose.
 */
export function ConflictNotice({ entity, entityId, row, refused, busy, formats, clashes, choices, onChoose, onReload, onOverwrite }: ConflictNoticeProps) {
  const history = useAudit({ entity, entityId, action: row?.action ?? 'update', page: 1, pageSize: row ? ROW_ENTRIES : 1 });
  const latest = row ? history.data?.items.find((entry) => savedThese(entry, row.changes)) : history.data?.items[0];
  const changed = row ? { action: 'update' as const, changes: row.changes } : latest;
  const box = useRef<HTMLDivElement>(null);
  // The save button that caused it may be a screen below: bring the notice into view. (A block
  // body: newer browsers return a promise from scrollIntoView, which React would take for a cleanup.)
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  return (
    <Alert ref={box} color="yellow" title="Someone else changed this while you were editing" mb="md" data-testid="conflict-notice">
      <Stack gap="xs">
        <Text size="sm" aria-busy={!history.data && !history.error}>
          {latest ? (
            <>
              <Text span fw={600} size="sm">
                {actorOf(latest)}
              </Text>{' '}
              saved a newer version on{' '}
              <Text span size="sm" component="time" dateTime={latest.at}>
                {formatDateTime(latest.at)}
              </Text>
              .
            </>
          ) : history.data || history.error ? (
            'A newer version was saved.'
          ) : (
            'Finding out who changed it…'
          )}{' '}
          {refused
            ? 'Your save was held back so it would not overwrite theirs; your changes are still below.'
            : 'You have not saved yet, and what you typed is still below.'}
        </Text>
        {changed && Object.keys(changed.changes).length > 0 ? (
          <Stack gap={2}>
            <Text size="sm">What they changed:</Text>
            <ChangeList entry={changed} formats={formats} />
          </Stack>
        ) : null}
        {clashes.length > 0 ? (
          <Stack gap="xs" data-testid="conflict-choices">
            <Text size="sm">You both changed {clashes.length === 1 ? 'this field' : 'these fields'}. Choose which value to keep; your other changes are saved over theirs.</Text>
            {clashes.map((clash) => (
              <Radio.Group
                key={clash.field}
                name={`conflict-${clash.field}`}
                label={fieldLabel(clash.field)}
                value={choices[clash.field] ?? 'mine'}
                onChange={(value) => onChoose(clash.field, value === 'theirs' ? 'theirs' : 'mine')}
              >
                <Stack gap={4} mt={4}>
                  <Radio value="theirs" label={`Theirs: ${shown(formatValue(clash.field, clash.theirs, formats))}`} disabled={busy} styles={{ label: { overflowWrap: 'anywhere' } }} />
                  <Radio value="mine" label={`Mine: ${shown(formatValue(clash.field, clash.mine, formats))}`} disabled={busy} styles={{ label: { overflowWrap: 'anywhere' } }} />
                </Stack>
              </Radio.Group>
            ))}
          </Stack>
        ) : null}
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={onReload} disabled={busy}>
            Reload their version
          </Button>
          <Button size="xs" color="yellow.9" onClick={onOverwrite} loading={busy} disabled={busy}>
            Overwrite with mine
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
