import { Alert, Anchor, Badge, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { ReactNode } from 'react';
import { isBilled, isClosingLedger, updateLineSchema, type LineChanges } from '../../../shared/schemas/invoices';
import type { InvoiceLine } from '../../../shared/types';
import { formatCents, formatDateTime, formatMonth } from '../../lib/format';
import { ChoiceField, MoneyField, NumberField, TextField, TextareaField } from '../../lib/form/fields';
import { MutationForm } from '../../lib/form/MutationForm';
import { SubmitButton } from '../../lib/form/SubmitButton';
import type { Mutation } from '../../lib/form/use-mutation';
import { validateWith } from '../../lib/form/validate';
import { Facts } from '../../lib/ui/Facts';
import { LINE_STATUS_COLORS, LINE_STATUS_LABELS, LINE_STATUS_OPTIONS } from './labels';
import { fetchLine } from './api';
import { links } from '../../lib/links';

const validate = validateWith(updateLineSchema);

interface Props {
  line: InvoiceLine;
  /** Whether the signed-in user's role may edit invoice lines at all. */
  canEdit: boolean;
  mutation: Mutation<LineChanges, InvoiceLine>;
  onReload: (current: InvoiceLine) => void;
}

/** The form's values for a line: a line on an open statement stays approved. */
const lineValues = (line: InvoiceLine): LineChanges => ({
  description: line.description,
  quantity: line.quantity,
  unitPriceCents: line.unitPriceCents,
  reference: line.reference,
  status: line.status === 'draft' ? 'draft' : 'approved',
});

/** Where a line's statement or invoice is shown: the GIFS statement, or the ledger's month with its invoice. */
const documentPath = (line: InvoiceLine, statementId: number) =>
  isClosingLedger(line.source) ? links.ledgerMonth(line.source, line.period) : links.statement(statementId);

const amountOf = (values: LineChanges) => {
  const { quantity, unitPriceCents } = values;
  const valid = Number.isInteger(quantity) && (quantity ?? -1) >= 0 && Number.isInteger(unitPriceCents);
  return valid ? formatCents((quantity ?? 0) * (unitPriceCents ?? 0)) : '—';
};

/**
 * A ledger line's facts and the form that edits quantity, price, status and wording. A line on an
 * issued or paid statement is billed and shows no form; a line on an open statement stays approved.
 */
export function LineEditor({ line, canEdit, mutation, onReload }: Props) {
  const billed = isBilled(line.statementStatus);
  const onStatement = line.statementId !== null;
  const readOnly = billed || !canEdit;
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
          ['Period', formatMonth(line.period)],
          ['Company', line.companyName ?? '—'],
          ['Amount', <Text fw={700} span data-testid="line-amount">{formatCents(line.amountCents)}</Text>],
          ['Status', <Badge color={LINE_STATUS_COLORS[line.status]} variant="light">{LINE_STATUS_LABELS[line.status]}</Badge>],
          ['Statement', line.statementNumber && line.statementId ? <Anchor component={Link} to={documentPath(line, line.statementId)}>{line.statementNumber}</Anchor> : '—'],
          ['Updated', formatDateTime(line.updatedAt)],
        ]}
      />
      {billed ? (
        <Alert color="gray" title="Billed">
          This line is on statement {line.statementNumber}, which has been {line.statementStatus}, so it can no longer change.
        </Alert>
      ) : null}
      {!billed && !canEdit ? <Text size="sm">Invoice lines are changed by the billing team; you can read this one.</Text> : null}
      {readOnly ? null : (
        <MutationForm<LineChanges, InvoiceLine>
          mutation={mutation}
          validate={validate}
          initialValues={lineValues(line)}
          record={{ entity: 'invoice_line', id: line.id, version: line.version, valuesOf: lineValues, onReload, read: fetchLine }}
        >
          {({ submitting, values }) => (
            <Stack>
              <TextareaField name="description" label="Description" autosize minRows={2} />
              <NumberField name="quantity" label="Quantity" />
              <MoneyField name="unitPriceCents" label="Unit price" />
              <TextField name="reference" label="Reference" />
              <ChoiceField
                name="status"
                label="Status"
                data={LINE_STATUS_OPTIONS}
                disabled={onStatement}
                description={onStatement ? `On statement ${line.statementNumber}: approved until it is issued or voided` : undefined}
              />
              <Text size="sm" c="dimmed">
                New amount: {amountOf(values)} (recalculated by the server)
              </Text>
              <SubmitButton label="Save line" submitting={submitting} />
            </Stack>
          )}
        </MutationForm>
      )}
    </Stack>
  );
}
