import { Anchor, Button, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from '../../../shared/schemas/audit';
import type { AuditAction, AuditEntity, AuditEntry } from '../../../shared/types';
import { useAudit } from '../../lib/audit/api';
import { ChangeList } from '../../lib/audit/ChangeList';
import { ACTION_LABELS, ENTITY_LABELS, actorOf, describeChanges } from '../../lib/audit/describe';
import { formatDateTime, fullName } from '../../lib/format';
import { useCan } from '../../lib/permissions';
import { notify } from '../../lib/toast/notify';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { Facts } from '../../lib/ui/Facts';
import { NoAccess } from '../../lib/ui/NoAccess';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { exportAudit, usePeople } from './api';
import { recordAddress } from './record-links';

const PAGE_SIZE = 50;

interface Filters {
  actorId?: number;
  entity?: AuditEntity;
  action?: AuditAction;
  /** Calendar days, YYYY-MM-DD; the API reads them as UTC days, inclusive. */
  from?: string;
  to?: string;
}

const ENTITY_OPTIONS = AUDIT_ENTITIES.map((value) => ({ value, label: ENTITY_LABELS[value] }));
const ACTION_OPTIONS = AUDIT_ACTIONS.map((value) => ({ value, label: ACTION_LABELS[value] }));

const recordName = (entry: AuditEntry) => `${ENTITY_LABELS[entry.entity] ?? entry.entity}${entry.entityId ? ` #${entry.entityId}` : ''}`;

const COLUMNS: Column<AuditEntry>[] = [
  { key: 'at', label: 'When', render: (entry) => <Text size="sm" component="time" dateTime={entry.at}>{formatDateTime(entry.at)}</Text> },
  { key: 'actor', label: 'Who', render: (entry) => actorOf(entry) },
  { key: 'action', label: 'Action', render: (entry) => ACTION_LABELS[entry.action] ?? entry.action },
  { key: 'record', label: 'Record', visibleFrom: 'sm', render: recordName },
  {
    key: 'changes',
    label: 'Changed',
    visibleFrom: 'md',
    render: (entry) => (
      <Text size="sm" lineClamp={1}>
        {describeChanges(entry).map((change) => change.label).join(', ') || '—'}
      </Text>
    ),
  },
];

function EntryDetails({ entry }: { entry: AuditEntry }) {
  const address = recordAddress(entry.entity, entry.entityId);
  return (
    <Stack>
      <Facts
        items={[
          ['When', formatDateTime(entry.at)],
          ['Who', actorOf(entry)],
          ['Action', ACTION_LABELS[entry.action] ?? entry.action],
          ['Record', address ? <Anchor component={Link} to={address}>{recordName(entry)}</Anchor> : recordName(entry)],
          ['Request id', <Text span size="sm" ff="monospace">{entry.requestId ?? '—'}</Text>],
        ]}
      />
      <ChangeList entry={entry} />
    </Stack>
  );
}

function AuditLog() {
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);
  const people = usePeople();
  const rangeError = filters.from && filters.to && filters.from > filters.to ? 'Must be on or after From' : undefined;
  const query = { ...filters, to: rangeError ? undefined : filters.to };
  const log = useAudit({ ...query, page, pageSize: PAGE_SIZE });
  const opened = log.data?.items.find((entry) => entry.id === openId);

  const personOptions = useMemo(() => (people.data?.items ?? []).map((user) => ({ value: String(user.id), label: fullName(user) })), [people.data]);
  const filter = (changes: Filters) => {
    setFilters((current) => ({ ...current, ...changes }));
    setPage(1);
  };
  const filtered = Object.values(filters).some((value) => value !== undefined);

  const exportCsv = async () => {
    setExporting(true);
    try {
      await exportAudit(query);
    } catch (error) {
      notify.error('Export failed', (error as Error).message);
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <PageTitle
        title="Audit log"
        description="Every change and sign-in, newest first"
        actions={
          <Button variant="light" onClick={exportCsv} loading={exporting} disabled={exporting}>
            Export CSV
          </Button>
        }
      />
      <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} mb="md">
        <Select
          label="Person"
          placeholder="Anyone"
          data={personOptions}
          value={filters.actorId ? String(filters.actorId) : null}
          onChange={(value) => filter({ actorId: value ? Number(value) : undefined })}
          clearable
          searchable
        />
        <Select
          label="Record type"
          placeholder="Any"
          data={ENTITY_OPTIONS}
          value={filters.entity ?? null}
          onChange={(value) => filter({ entity: (value ?? undefined) as AuditEntity | undefined })}
          clearable
        />
        <Select
          label="Action"
          placeholder="Any"
          data={ACTION_OPTIONS}
          value={filters.action ?? null}
          onChange={(value) => filter({ action: (value ?? undefined) as AuditAction | undefined })}
          clearable
        />
        <TextInput label="From" type="date" value={filters.from ?? ''} onChange={(event) => filter({ from: event.currentTarget.value || undefined })} />
        <TextInput label="To" type="date" value={filters.to ?? ''} error={rangeError} onChange={(event) => filter({ to: event.currentTarget.value || undefined })} />
      </SimpleGrid>
      <DataTable
        label="Audit log"
        columns={COLUMNS}
        page={log.data}
        error={log.error}
        onRetry={() => log.mutate()}
        onPageChange={setPage}
        onOpen={(entry) => setOpenId(entry.id)}
        selectedId={openId ?? undefined}
        empty={{ title: filtered ? 'No entries match these filters' : 'Nothing recorded yet', description: filtered ? 'Widen the dates or clear a filter.' : undefined }}
      />
      <RecordDrawer opened={opened !== undefined} onClose={() => setOpenId(null)} title={opened ? `${ACTION_LABELS[opened.action] ?? opened.action} · ${recordName(opened)}` : 'Entry'}>
        {opened ? <EntryDetails entry={opened} /> : null}
      </RecordDrawer>
    </>
  );
}

/** `/audit/`: the whole log, for admins; everyone else is told the page is not theirs. */
export function AuditPage() {
  return useCan('readAuditLog') ? <AuditLog /> : <NoAccess who="administrators" />;
}
