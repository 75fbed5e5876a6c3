import { Button, Center, Divider, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import { Form } from 'react-final-form';
import type { AnyObject, ObjectSchema } from 'yup';
import type { Permission } from '../../../shared/permissions';
import type { AuditEntity } from '../../../shared/types';
import { HistorySection } from '../../lib/audit/HistorySection';
import { SubmitButton } from '../../lib/form/SubmitButton';
import { validateWith } from '../../lib/form/validate';
import { useCan } from '../../lib/permissions';
import { notify } from '../../lib/toast/notify';
import { DataTable, type Column } from '../../lib/ui/DataTable';
import { Facts } from '../../lib/ui/Facts';
import { PageTitle } from '../../lib/ui/PageTitle';
import { RecordDrawer } from '../../lib/ui/RecordDrawer';
import { SearchField } from '../../lib/ui/SearchField';
import type { LookupApi } from './api';
import { useLookupSearch } from './search';

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
}

const message = (error: unknown) => (error as Error).message;

function LookupForm({ schema, initialValues, fields, submitLabel, onSubmit }: { schema: ObjectSchema<AnyObject>; initialValues: object; fields: ReactNode; submitLabel: string; onSubmit: (values: object) => Promise<void> }) {
  return (
    <Form
      onSubmit={onSubmit}
      validate={validateWith(schema)}
      initialValues={initialValues}
      render={({ handleSubmit, submitting }) => (
        <form onSubmit={handleSubmit} noValidate>
          <Stack>
            {fields}
            <SubmitButton label={submitLabel} submitting={submitting} />
          </Stack>
        </form>
      )}
    />
  );
}

/** A lookup table's page: searchable list, create, and a panel to view, edit and delete (admins), or only view. */
export function LookupPage<T extends { id: number; name: string; updatedAt: string }>({ config }: { config: LookupConfig<T> }) {
  const { api, noun } = config;
  const [{ id, q, page = 1 }, view] = useLookupSearch();
  const setSearch = view.update;
  const list = api.useList({ q, page });
  const record = api.useRecord(id);
  const [creating, createModal] = useDisclosure(false);
  const [confirming, confirmModal] = useDisclosure(false);
  const [deleting, setDeleting] = useState(false);
  const canEdit = useCan(config.permission);
  const newButton = canEdit ? <Button onClick={createModal.open}>New {noun.toLowerCase()}</Button> : undefined;

  const create = async (values: object) => {
    try {
      const created = await api.create(values);
      notify.success(`${noun} created`, created.name);
      createModal.close();
      setSearch({ id: created.id });
      await list.mutate();
    } catch (error) {
      notify.error(`${noun} not created`, message(error));
    }
  };

  const save = async (values: object) => {
    if (!id) return;
    try {
      const updated = await api.update(id, values);
      notify.success(`${noun} saved`, updated.name);
      await Promise.all([record.mutate(updated, { revalidate: false }), list.mutate()]);
    } catch (error) {
      notify.error(`${noun} not saved`, message(error));
    }
  };

  const remove = async () => {
    if (!id) return;
    setDeleting(true);
    try {
      await api.remove(id);
      notify.success(`${noun} deleted`, record.data?.name);
      confirmModal.close();
      setSearch({ id: undefined });
      await list.mutate();
    } catch (error) {
      notify.error(`${noun} not deleted`, message(error));
    } finally {
      setDeleting(false);
    }
  };

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
        onOpen={(row) => setSearch({ id: row.id })}
        selectedId={id}
        empty={{
          title: q ? `No ${config.title.toLowerCase()} match this search` : `No ${config.title.toLowerCase()} yet`,
          action: q ? undefined : newButton,
        }}
      />
      <Modal opened={creating && canEdit} onClose={createModal.close} title={`New ${noun.toLowerCase()}`}>
        <LookupForm schema={config.schema} initialValues={config.blank} fields={config.fields} submitLabel={`Create ${noun.toLowerCase()}`} onSubmit={create} />
      </Modal>
      <RecordDrawer opened={id !== undefined} onClose={() => setSearch({ id: undefined })} title={record.data?.name ?? noun}>
        {record.error ? <Text c="red">{record.error.message}</Text> : null}
        {!record.data && !record.error ? (
          <Center py="xl" aria-busy="true">
            <Loader aria-label={`Loading ${noun.toLowerCase()}`} />
          </Center>
        ) : null}
        {record.data ? (
          <Stack>
            {canEdit ? null : <Facts items={config.facts(record.data)} />}
            {config.details(record.data)}
            {canEdit ? (
              <>
                <LookupForm key={record.data.updatedAt} schema={config.schema} initialValues={config.valuesOf(record.data)} fields={config.fields} submitLabel="Save changes" onSubmit={save} />
                <Group justify="flex-start">
                  <Button color="red" variant="light" onClick={confirmModal.open}>
                    Delete
                  </Button>
                </Group>
              </>
            ) : null}
            <Divider />
            <HistorySection changedAt={record.data.updatedAt} entity={config.entity} entityId={record.data.id} />
          </Stack>
        ) : null}
      </RecordDrawer>
      <Modal opened={confirming && canEdit} onClose={confirmModal.close} title={`Delete ${noun.toLowerCase()}?`}>
        <Stack>
          <Text>
            Delete <strong>{record.data?.name}</strong>? This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={confirmModal.close}>
              Cancel
            </Button>
            <Button color="red" onClick={remove} loading={deleting} disabled={deleting}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
