import { Alert, Badge, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Form } from 'react-final-form';
import { updateLineSchema, type LineChanges } from '../../../shared/schemas/invoices';
import type { InvoiceLine } from '../../../shared/types';
import { formatCents, formatDateTime } from '../../lib/format';
import { ChoiceField, NumberField, TextField, TextareaField } from '../../lib/form/fields';
import { SubmitButton } from '../../lib/form/SubmitButton';
import { validateWith } from '../../lib/form/validate';
import { Facts } from '../../lib/ui/Facts';
import { LINE_STATUS_COLORS, LINE_STATUS_LABELS, LINE_STATUS_OPTIONS, periodLabel } from './labels';

const validate = validateWith(updateLineSchema);

interface Props {
  line: InvoiceLine;
  /** On an issued or paid statement: nobody may change it. */
  locked: boolean;
  /** Whether the signed-in user's role may edit invoice lines at all. */
  canEdit: boolean;
  onSave: (changes: LineChanges) => Promise<void>;
}

/** A ledger line's facts and the form that edits quantity, price in cents, status and wording. */
export function LineEditor({ line, locked, canEdit, onSave }: Props) {
  const readOnly = locked || !canEdit;
  // Without the form, the values it would hold are shown as facts.
  const values: [string, ReactNode][] = readOnly
    ? [
        ['Description', <Text span size="sm" style={{ whiteSpace: 'pre-wrap' }}>{line.description}</Text>],
        ['Quantity', line.quantity.toLocaleString()],
        ['Unit price', formatCents(line.unitPriceCents)],
        ['Reference', line.reference || '—'],
      ]
    : [];
  return (
    <Stack>
      <Facts
        items={[
          ...values,
          ['Period', periodLabel(line.period)],
          ['Company', line.companyName ?? '—'],
          ['Amount', <Text fw={700} span data-testid="line-amount">{formatCents(line.amountCents)}</Text>],
          ['Status', <Badge color={LINE_STATUS_COLORS[line.status]} variant="light">{LINE_STATUS_LABELS[line.status]}</Badge>],
          ['Statement', line.statementId ? `#${line.statementId}` : '—'],
          ['Updated', formatDateTime(line.updatedAt)],
        ]}
      />
      {locked ? (
        <Alert color="gray" title="Billed">
          This line is on a statement that has been issued, so it can no longer change.
        </Alert>
      ) : null}
      {!locked && !canEdit ? <Text size="sm">Invoice lines are changed by the billing team; you can read this one.</Text> : null}
      {readOnly ? null : (
        <Form<LineChanges>
          onSubmit={onSave}
          validate={validate}
          initialValues={{ description: line.description, quantity: line.quantity, unitPriceCents: line.unitPriceCents, reference: line.reference, status: line.status }}
          render={({ handleSubmit, submitting, values }) => (
            <form onSubmit={handleSubmit} noValidate>
              <Stack>
                <TextareaField name="description" label="Description" autosize minRows={2} />
                <NumberField name="quantity" label="Quantity" min={0} />
                <NumberField name="unitPriceCents" label="Unit price (cents)" description={values.unitPriceCents !== undefined ? formatCents(values.unitPriceCents) : undefined} />
                <TextField name="reference" label="Reference" />
                <ChoiceField name="status" label="Status" data={LINE_STATUS_OPTIONS} />
                <Text size="sm" c="dimmed">
                  New amount: {formatCents((values.quantity ?? 0) * (values.unitPriceCents ?? 0))} (recalculated by the server)
                </Text>
                <SubmitButton label="Save line" submitting={submitting} />
              </Stack>
            </form>
          )}
        />
      )}
    </Stack>
  );
}
