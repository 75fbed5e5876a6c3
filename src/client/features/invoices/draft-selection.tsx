import { Button, Checkbox, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { InvoiceLine } from '../../../shared/types';
import { useAction } from '../../lib/form/use-mutation';
import type { Column } from '../../lib/ui/DataTable';
import { approveLines } from './api';

/**
 * Picking draft lines on a ledger page and approving them at once. The server approves all of them
 * or none (409 naming the lines that are no longer drafts), so the page reloads either way.
 */
export const useDraftSelection = (items: InvoiceLine[] | undefined, onApproved: () => unknown) => {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const drafts = (items ?? []).filter((line) => line.status === 'draft');
  // Only drafts still on the page count: a line approved or filtered away meanwhile drops out.
  const chosen = drafts.filter((line) => selected.has(line.id)).map((line) => line.id);
  const toggle = (id: number, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const approve = useAction<number[], { approved: number }>({
    send: approveLines,
    success: ({ approved }) => [`${approved} ${approved === 1 ? 'line' : 'lines'} approved`],
    failure: 'Nothing approved',
    onSuccess: () => {
      setSelected(new Set());
      return onApproved();
    },
    onFailure: () => onApproved(),
  });

  const column: Column<InvoiceLine> = {
    key: 'select',
    label: 'Select',
    render: (line) =>
      line.status === 'draft' ? (
        <Checkbox
          aria-label={`Select ${line.description.split('\n')[0]} (line ${line.id})`}
          checked={selected.has(line.id)}
          onChange={(event) => toggle(line.id, event.currentTarget.checked)}
          // The row opens the line on click and Enter or Space; ticking a box must not.
          onClick={(event) => event.stopPropagation()}
          onKeyDown={(event) => event.stopPropagation()}
        />
      ) : null,
  };

  const allChosen = drafts.length > 0 && chosen.length === drafts.length;
  const toolbar = (
    <Group mb="sm" gap="sm" wrap="wrap">
      <Button
        variant="default"
        size="xs"
        disabled={drafts.length === 0}
        onClick={() => setSelected(allChosen ? new Set() : new Set(drafts.map((line) => line.id)))}
      >
        {allChosen ? 'Clear selection' : 'Select drafts on this page'}
      </Button>
      <Button size="xs" disabled={chosen.length === 0 || approve.busy} loading={approve.busy} onClick={() => void approve.run(chosen)}>
        Approve selected ({chosen.length})
      </Button>
      <Text size="sm" c="dimmed" aria-live="polite">
        {chosen.length ? `${chosen.length} of ${drafts.length} drafts on this page selected` : null}
      </Text>
    </Group>
  );
  return { column, toolbar };
};
