import { Badge, Button, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { InvoiceSource } from '../../../shared/schemas/invoices';
import type { ImportBatch } from '../../../shared/types';
import { formatDateTime } from '../../lib/format';
import { useAction } from '../../lib/form/use-mutation';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { undoImport, useImports } from './api';

const stateOf = (batch: ImportBatch) => {
  if (batch.undoneAt) return <Badge color="gray" variant="light">Undone</Badge>;
  if (batch.billedLines) return <Badge color="blue" variant="light">{batch.billedLines} approved or billed</Badge>;
  return <Badge color="green" variant="light">Drafts</Badge>;
};

/** A ledger's recent imports; one may be undone while every line of it is still a draft. */
export function PastImports({ source, onUndone }: { source: InvoiceSource; onUndone: () => unknown }) {
  const imports = useImports(source);
  const [undoing, setUndoing] = useState<ImportBatch | null>(null);
  const undo = useAction<ImportBatch, null>({
    send: (batch) => undoImport(batch.id),
    success: (_, batch) => ['Import undone', `${batch.lines} ${batch.lines === 1 ? 'line' : 'lines'} removed`],
    failure: 'Import not undone',
    onSuccess: () => {
      setUndoing(null);
      return Promise.all([imports.mutate(), onUndone()]);
    },
    onFailure: () => {
      setUndoing(null);
      return imports.mutate();
    },
  });
  const items = imports.data?.items ?? [];
  return (
    <>
      <Title order={3} size="h4">
        Past imports
      </Title>
      {imports.error ? <Text c="red">{imports.error.message}</Text> : null}
      {imports.data && !items.length ? <Text c="dimmed">No imports into this ledger yet.</Text> : null}
      {items.length ? (
        <Table.ScrollContainer minWidth={640} type="native" tabIndex={0} role="region" aria-label="Past imports, scrolls sideways">
          <Table aria-label="Past imports" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>File</Table.Th>
                <Table.Th ta="right">Rows</Table.Th>
                <Table.Th ta="right">Created</Table.Th>
                <Table.Th ta="right">Skipped</Table.Th>
                <Table.Th>State</Table.Th>
                <Table.Th>Undo</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((batch) => (
                <Table.Tr key={batch.id}>
                  <Table.Td>{formatDateTime(batch.at)}</Table.Td>
                  <Table.Td>{batch.userName ?? '—'}</Table.Td>
                  <Table.Td>{batch.fileName || '—'}</Table.Td>
                  <Table.Td ta="right">{batch.rows.toLocaleString()}</Table.Td>
                  <Table.Td ta="right">{batch.created.toLocaleString()}</Table.Td>
                  <Table.Td ta="right">{batch.duplicates.toLocaleString()}</Table.Td>
                  <Table.Td>{stateOf(batch)}</Table.Td>
                  <Table.Td>
                    {batch.undoneAt || batch.billedLines ? null : (
                      <Button size="compact-xs" variant="subtle" color="red" onClick={() => setUndoing(batch)} aria-label={`Undo the import of ${batch.fileName || 'a file'} at ${formatDateTime(batch.at)}`}>
                        Undo
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <ConfirmDialog
        opened={undoing !== null}
        onClose={() => setUndoing(null)}
        title="Undo this import?"
        confirmLabel="Undo import"
        busy={undo.busy}
        onConfirm={() => undoing && void undo.run(undoing)}
      >
        <Text>
          Remove the {undoing?.lines.toLocaleString()} draft lines imported from <strong>{undoing?.fileName || 'the file'}</strong>? The audit log keeps a record of the import and its undo.
        </Text>
      </ConfirmDialog>
    </>
  );
}
