import { Button, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMemo } from 'react';
import { createLineSchema, type InvoiceSource, type LinePayload } from '../../../shared/schemas/invoices';
import type { InvoiceLine } from '../../../shared/types';
import { formatCents, formatMonth } from '../../lib/format';
import { ChoiceField, MoneyField, NumberField, TextField, TextareaField } from '../../lib/form/fields';
import { MutationForm } from '../../lib/form/MutationForm';
import { RecordSelectField } from '../../lib/form/RecordSelectField';
import { SubmitButton } from '../../lib/form/SubmitButton';
import type { Mutation } from '../../lib/form/use-mutation';
import { validateWith } from '../../lib/form/validate';
import { FormModal } from '../../lib/ui/FormModal';
import { createLine } from './api';
import { LINE_STATUS_OPTIONS, PERIOD_OPTIONS, currentPeriod } from './labels';

const validate = validateWith(createLineSchema);

/** "New line" and its dialog: a line typed in by hand, a draft unless chosen otherwise. */
export function NewLineButton({ source, period, onCreated }: { source: InvoiceSource; period?: string; onCreated: (line: InvoiceLine) => unknown }) {
  const [opened, dialog] = useDisclosure(false);
  // The ledger's filtered month is offered even when it is older or later than the usual list.
  const periods = useMemo(
    () => (period && !PERIOD_OPTIONS.some((option) => option.value === period) ? [{ value: period, label: formatMonth(period) }, ...PERIOD_OPTIONS] : PERIOD_OPTIONS),
    [period],
  );
  const create: Mutation<LinePayload, InvoiceLine> = {
    send: (line) => createLine(source, line),
    success: (line) => ['Line created', formatCents(line.amountCents)],
    failure: 'Line not created',
    onSuccess: (line) => {
      dialog.close();
      return onCreated(line);
    },
  };
  return (
    <>
      <Button onClick={dialog.open}>New line</Button>
      <FormModal opened={opened} onClose={dialog.close} title="New line">
        <MutationForm<LinePayload, InvoiceLine>
          mutation={create}
          validate={validate}
          initialValues={{ period: period ?? currentPeriod(), companyId: null, description: '', reference: '', status: 'draft' }}
        >
          {({ submitting }) => (
            <Stack>
              <ChoiceField name="period" label="Period" data={periods} searchable />
              <RecordSelectField name="companyId" label="Company" records="companies" placeholder="None" />
              <TextareaField name="description" label="Description" autosize minRows={2} />
              <NumberField name="quantity" label="Quantity" />
              <MoneyField name="unitPriceCents" label="Unit price" />
              <TextField name="reference" label="Reference" />
              <ChoiceField name="status" label="Status" data={LINE_STATUS_OPTIONS} />
              <SubmitButton label="Create line" submitting={submitting} />
            </Stack>
          )}
        </MutationForm>
      </FormModal>
    </>
  );
}
