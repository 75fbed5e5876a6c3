import { Anchor, Button, Select, Stack, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router-dom';
import { ValidationError } from 'yup';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, auditQuerySchema } from '../../../shared/schemas/audit';
import type { AuditEntry } from '../../../shared/types';
import { useAudit } from '../../lib/audit/api';
import { ChangeList } from '../../lib/audit/ChangeList';
import { ACTION_LABELS, ENTITY_LABELS, actorOf, describeChanges, recordLabel } from '../../lib/audit/describe';
import { formatDateTime } from '../../lib/format';
import { useCan } from '../../lib/permissions';
import { optionalId, optionalOneOf } from '../../lib/url-state';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { Facts } from '../../lib/ui/Facts';
import { FoldingFilters } from '../../lib/ui/FoldingFilters';
import { NoAccess } from '../../lib/ui/NoAccess';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { RecordSelect } from '../../lib/ui/RecordSelect';
import { useDownload } from '../../lib/use-download';
import { exportAudit } from './api';
import { recordAddress } from '../../lib/links';
import { useAuditParams, type AuditView } from '../../lib/addresses/audit';

const PAGE_SIZE = 50;

const ENTITY_OPTIONS = AUDIT_ENTITIES.map((value) => ({ value, label: ENTITY_LABELS[value] }));
const ACTION_OPTIONS = AUDIT_ACTIONS.map((value) => ({ value, label: ACTION_LABELS[value] }));

const COLUMNS: Column<AuditEntry>[] = [
  { key: 'at', label: 'When', render: (entry) => <Text size="sm" component="time" dateTime={entry.at}>{formatDateTime(entry.at)}</Text> },
  { key: 'actor', label: 'Who', render: (entry) => actorOf(entry) },
  { key: 'action', label: 'Action', render: (entry) => ACTION_LABELS[entry.action] ?? entry.action },
  { key: 'record', label: 'Record', visibleFrom: 'sm', render: recordLabel },
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
          ['Record', address ? <Anchor component={Link} to={address}>{recordLabel(entry)}</Anchor> : recordLabel(entry)],
          ['Request id', <Text span size="sm" ff="monospace">{entry.requestId ?? '—'}</Text>],
        ]}
      />
      <ChangeList entry={entry} />
    </Stack>
  );
}

/**
 * What the To filter says: the API's own rule for the range (the shared query schema's), in this
 * page's words, so the page never asks for a range the API would refuse.
 */
const rangeErrorOf = ({ from, to }: Pick<AuditView, 'from' | 'to'>) => {
  try {
    auditQuerySchema.validateSyncAt('to', { from, to });
    return undefined;
  } catch (error) {
    if (error instanceof ValidationError) return 'Must be on or after From';
    throw error;
  }
};

function AuditLog() {
  const [{ id: openId, page = 1, ...filters }, view] = useAuditParams();
  const csv = useDownload('Export failed');
  const rangeError = rangeErrorOf(filters);
  const query = { ...filters, to: rangeError ? undefined : filters.to };
  const log = useAudit({ ...query, page, pageSize: PAGE_SIZE });
  const onPage = log.data?.items.find((entry) => entry.id === openId);
  // A shared link's entry may have moved to another page since (newer entries push it down).
  const alone = useAudit(openId !== undefined && log.data && !onPage ? { id: openId, page: 1, pageSize: 1 } : null);
  const opened = onPage ?? alone.data?.items[0];

  const filtered = Object.values(filters).some((value) => value !== undefined);

  return (
    <>
      <PageTitle
        title="Audit log"
        description="Every change and sign-in, newest first"
        actions={
          <Button variant="light" onClick={() => void csv.start(() => exportAudit(query))} loading={csv.busy} disabled={csv.busy}>
            Export CSV
          </Button>
        }
      />
      <FoldingFilters id="audit-filters" active={Object.values(filters).filter((value) => value !== undefined).length} cols={{ base: 1, xs: 2, md: 3, lg: 6 }}>
        <RecordSelect
          label="Person"
          placeholder="Anyone"
          records="users"
          value={filters.actorId ?? null}
          onChange={(actorId) => view.filter({ actorId: actorId ?? undefined })}
          clearable
        />
        <Select
          label="Record type"
          placeholder="Any"
          data={ENTITY_OPTIONS}
          value={filters.entity ?? null}
          onChange={(value) => view.filter({ entity: optionalOneOf(AUDIT_ENTITIES, value) })}
          clearable
        />
        <Select
          label="Action"
          placeholder="Any"
          data={ACTION_OPTIONS}
          value={filters.action ?? null}
          onChange={(value) => view.filter({ action: optionalOneOf(AUDIT_ACTIONS, value) })}
          clearable
        />
        <TextInput
          label="Record id"
          placeholder="Any"
          inputMode="numeric"
          value={filters.entityId?.toString() ?? ''}
          // Typing replaces the history entry, so Back does not step through every digit.
          onChange={(event) => view.update({ entityId: optionalId(event.currentTarget.value), page: undefined }, { replace: true })}
        />
        <TextInput label="From" type="date" value={filters.from ?? ''} onChange={(event) => view.filter({ from: event.currentTarget.value || undefined })} />
        <TextInput label="To" type="date" value={filters.to ?? ''} error={rangeError} onChange={(event) => view.filter({ to: event.currentTarget.value || undefined })} />
      </FoldingFilters>
      <DataTable
        label="Audit log"
        columns={COLUMNS}
        page={log.data}
        error={log.error}
        onRetry={() => log.mutate()}
        onPageChange={view.goTo}
        onOpen={(entry) => view.update({ id: entry.id })}
        selectedId={openId}
        empty={{ title: filtered ? 'No entries match these filters' : 'Nothing recorded yet', description: filtered ? 'Widen the dates or clear a filter.' : undefined }}
      />
      <RecordDrawer opened={opened !== undefined} onClose={() => view.update({ id: undefined })} title={opened ? `${ACTION_LABELS[opened.action] ?? opened.action} · ${recordLabel(opened)}` : 'Entry'}>
        {opened ? <EntryDetails entry={opened} /> : null}
      </RecordDrawer>
    </>
  );
}

/** `/audit/`: the whole log, for admins; everyone else is told the page is not theirs. */
export function AuditPage() {
  return useCan('readAuditLog') ? <AuditLog /> : <NoAccess who="administrators" />;
}
