import { Button, Center, Divider, Group, Loader, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import type { SWRResponse } from 'swr';
import type { AnyObject, ObjectSchema } from 'yup';
import type { Permission } from '../../../shared/permissions';
import type { AuditEntity, LookupUses } from '../../../shared/types';
import { HistorySection } from '../../lib/audit/HistorySection';
import { MutationForm, type EditedRecord } from '../../lib/form/MutationForm';
import { SubmitButton } from '../../lib/form/SubmitButton';
import { useAction, type Mutation } from '../../lib/form/use-mutation';
import { validateWith } from '../../lib/form/validate';
import { useCan } from '../../lib/permissions';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { Facts } from '../../lib/ui/Facts';
import { FormModal } from '../../lib/ui/FormModal';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { SearchField } from '../../lib/ui/SearchField';
import type { LookupApi } from './api';
import { useLookupParams } from '../../lib/addresses/lookups';
import { RecordState } from '../../lib/ui/RecordState';

export interface LookupConfig<T extends { id: number; name: string }> {
  title: string;
  description: string;
  noun: string;
  /** The record's kind in the audit log, for its History. */
  entity: AuditEntity;
  /** Who may create, edit and delete these records. */
  permission: Permission;
  api: LookupApi<T>;
  columns: Column<T>[];
  schema: ObjectSchema<AnyObject>;
  blank: object;
  /** The form values for a record: only the fields the server accepts. */
  valuesOf: (record: T) => object;
  fields: ReactNode;
  /** The form's fields as read-only facts, for those who may not edit. */
  facts: (record: T) => [label: string, value: ReactNode][];
  details: (record: T) => ReactNode;
  /** What to do instead when a record in use cannot be deleted. */
  instead?: string;
}

interface LookupFormProps<T> {
  schema: ObjectSchema<AnyObject>;
  initialValues: object;
  fields: ReactNode;
  submitLabel: string;
  mutation: Mutation<object, T>;
  record?: EditedRecord<object, T>;
}

function LookupForm<T>({ schema, initialValues, fields, submitLabel, mutation, record }: LookupFormProps<T>) {
  return (
    <MutationForm<object, T> mutation={mutation} validate={validateWith(schema)} initialValues={initialValues} record={record}>
      {({ submitting }) => (
        <Stack>
          {fields}
          <SubmitButton label={submitLabel} submitting={submitting} />
        </Stack>
      )}
    </MutationForm>
  );
}

/** The delete dialog's text: whether the record may go, once its uses are known. */
function DeleteQuestion({ name, noun, uses, instead }: { name: string | undefined; noun: string; uses: SWRResponse<LookupUses, Error>; instead: string }) {
  if (uses.error) return <Text c="red">Could not check whether this {noun.toLowerCase()} is in use: {uses.error.message}</Text>;
  if (!uses.data) {
    return (
      <Center aria-busy="true">
        <Loader size="sm" aria-label="Checking whether it is in use" />
      </Center>
    );
  }
  if (uses.data.usedBy.length > 0) {
    return (
      <Text>
        <strong>{name}</strong> cannot be deleted: it is still used by {uses.data.usedBy.join(' and ')}. {instead}
      </Text>
    );
  }
  return (
    <Text>
      Delete <strong>{name}</strong>? This cannot be undone.
    </Text>
  );
}

/** A lookup table's page: searchable list, create, and a panel to view, edit and delete (admins), or only view. */
export function LookupPage<T extends { id: number; name: string; updatedAt: string; version: number }>({ config }: { config: LookupConfig<T> }) {
  const { api, noun } = config;
  const [{ id, q, page = 1 }, view] = useLookupParams();
  const setParams = view.update;
  const list = api.useList({ q, page });
  const record = api.useRecord(id);
  const [creating, createModal] = useDisclosure(false);
  const [confirming, confirmModal] = useDisclosure(false);
  // Asked as the delete dialog opens, so it says at once when the record is still in use.
  const uses = api.useUses(confirming ? id : undefined);
  const usedBy = uses.data?.usedBy ?? [];
  const canEdit = useCan(config.permission);
  const newButton = canEdit ? <Button onClick={createModal.open}>New {noun.toLowerCase()}</Button> : undefined;

  const showRecord = (current: T) => Promise.all([record.mutate(current, { revalidate: false }), list.mutate()]);

  const create: Mutation<object, T> = {
    send: (values) => api.create(values),
    success: (created) => [`${noun} created`, created.name],
    failure: `${noun} not created`,
    onSuccess: async (created) => {
      createModal.close();
      setParams({ id: created.id });
      await list.mutate();
    },
  };

  const save = (edited: T): Mutation<object, T> => ({
    send: (values, ifMatch) => api.update(edited.id, values, ifMatch),
    success: (updated) => [`${noun} saved`, updated.name],
    failure: `${noun} not saved`,
    onSuccess: showRecord,
  });

  const remove = useAction<T, null>({
    send: (current) => api.remove(current.id),
    success: (_, current) => [`${noun} deleted`, current.name],
    failure: `${noun} not deleted`,
    onSuccess: async () => {
      confirmModal.close();
      setParams({ id: undefined });
      await list.mutate();
    },
  });

  return (
    <>
      <PageTitle title={config.title} description={config.description} actions={newButton} />
      <Group mb="md" grow>
        <SearchField label="Search" placeholder="Name" value={q} onSearch={view.search} />
      </Group>
      <DataTable
        label={config.title}
        columns={config.columns}
        page={list.data}
        error={list.error}
        onRetry={() => list.mutate()}
        onPageChange={view.goTo}
        onOpen={(row) => setParams({ id: row.id })}
        selectedId={id}
        empty={{
          title: q ? `No ${config.title.toLowerCase()} match this search` : `No ${config.title.toLowerCase()} yet`,
          action: q ? undefined : newButton,
        }}
      />
      <FormModal opened={creating && canEdit} onClose={createModal.close} title={`New ${noun.toLowerCase()}`}>
        <LookupForm schema={config.schema} initialValues={config.blank} fields={config.fields} submitLabel={`Create ${noun.toLowerCase()}`} mutation={create} />
      </FormModal>
      <RecordDrawer opened={id !== undefined} onClose={() => setParams({ id: undefined })} title={record.data?.name ?? noun}>
        <RecordState read={record} noun={noun}>
          {(current) => (
            <Stack>
              {canEdit ? null : <Facts items={config.facts(current)} />}
              {config.details(current)}
              {canEdit ? (
                <>
                  <LookupForm
                    key={current.updatedAt}
                    schema={config.schema}
                    initialValues={config.valuesOf(current)}
                    fields={config.fields}
                    submitLabel="Save changes"
                    mutation={save(current)}
                    record={{
                      entity: config.entity,
                      id: current.id,
                      version: current.version,
                      valuesOf: config.valuesOf,
                      onReload: (reloaded) => void showRecord(reloaded),
                      read: api.fetch,
                    }}
                  />
                  <Group justify="flex-start">
                    <Button color="red" variant="light" onClick={confirmModal.open}>
                      Delete
                    </Button>
                  </Group>
                </>
              ) : null}
              <Divider />
              <HistorySection changedAt={current.updatedAt} entity={config.entity} entityId={current.id} />
            </Stack>
          )}
        </RecordState>
      </RecordDrawer>
      <ConfirmDialog
        opened={confirming && canEdit}
        onClose={confirmModal.close}
        title={`Delete ${noun.toLowerCase()}?`}
        confirmLabel="Delete"
        onConfirm={() => record.data && void remove.run(record.data)}
        busy={remove.busy || (!uses.data && !uses.error)}
        blocked={usedBy.length > 0}
      >
        <DeleteQuestion name={record.data?.name} noun={noun} uses={uses} instead={config.instead ?? 'Mark it inactive instead.'} />
      </ConfirmDialog>
    </>
  );
}
