import { Badge, Stack, Table, Text } from '@mantine/core';
import type { ImportError, ImportPreviewLine, ImportReport } from '../../../shared/types';
import { formatCents } from '../../lib/format';

const COLUMNS: { field: string; label: string; value: (line: ImportPreviewLine) => string; align?: 'right' }[] = [
  { field: 'period', label: 'Period', value: (l) => l.period },
  { field: 'company', label: 'Company', value: (l) => l.company },
  { field: 'description', label: 'Description', value: (l) => l.description },
  // A value that could not be read shows as the file has it, next to its problem.
  { field: 'quantity', label: 'Qty', value: (l) => (l.quantity === null ? l.quantityText : l.quantity.toLocaleString()), align: 'right' },
  { field: 'unit_price', label: 'Unit price', value: (l) => (l.unitPriceCents === null ? l.unitPriceText : formatCents(l.unitPriceCents)), align: 'right' },
  { field: 'reference', label: 'Reference', value: (l) => l.reference },
];

/** The first rows of a checked file as the lines they would become, each problem shown in its cell. */
export function ImportPreview({ report }: { report: ImportReport }) {
  const errorsOf = (row: number) => report.errors.filter((error) => error.row === row);
  const later = report.errors.filter((error) => error.row > (report.preview[report.preview.length - 1]?.row ?? 0));
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={760} type="native" tabIndex={0} role="region" aria-label="Preview, scrolls sideways">
        <Table aria-label={`Preview of the first ${report.preview.length} rows`} verticalSpacing={4} withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th ta="right">Row</Table.Th>
              {COLUMNS.map((column) => (
                <Table.Th key={column.field} ta={column.align}>
                  {column.label}
                </Table.Th>
              ))}
              <Table.Th>Check</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.preview.map((line) => {
              const errors = errorsOf(line.row);
              const whole = errors.filter((error) => error.field === 'row');
              return (
                <Table.Tr key={line.row} data-row={line.row} data-invalid={errors.length > 0 || undefined}>
                  <Table.Th scope="row" ta="right" fw={400}>
                    {line.row}
                  </Table.Th>
                  {COLUMNS.map((column) => {
                    const faults = errors.filter((error) => error.field === column.field);
                    return (
                      <Table.Td key={column.field} ta={column.align} data-field={column.field} data-invalid={faults.length > 0 || undefined}>
                        <Text size="sm" lineClamp={2}>
                          {column.value(line)}
                        </Text>
                        {faults.map((fault) => (
                          <Text key={fault.message} size="xs" c="red" fw={600}>
                            {fault.message}
                          </Text>
                        ))}
                      </Table.Td>
                    );
                  })}
                  <Table.Td>
                    {errors.length ? (
                      <Badge color="red" variant="light">
                        {errors.length} {errors.length === 1 ? 'problem' : 'problems'}
                      </Badge>
                    ) : line.duplicate ? (
                      <Badge color="gray" variant="light">
                        Already imported
                      </Badge>
                    ) : (
                      <Badge color="green" variant="light">
                        OK
                      </Badge>
                    )}
                    {whole.map((fault) => (
                      <Text key={fault.message} size="xs" c="red" fw={600}>
                        {fault.message}
                      </Text>
                    ))}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {later.length ? <LaterProblems errors={later} /> : null}
    </Stack>
  );
}

/** Problems in rows past the preview, listed by row and column. */
function LaterProblems({ errors }: { errors: ImportError[] }) {
  return (
    <Table.ScrollContainer minWidth={0} mah={240} type="native" tabIndex={0} role="region" aria-label="More problems, scrolls">
      <Table aria-label="Problems in later rows" verticalSpacing={2}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th ta="right">Row</Table.Th>
            <Table.Th>Column</Table.Th>
            <Table.Th>Problem</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {errors.map((error) => (
            <Table.Tr key={`${error.row}-${error.field}-${error.message}`}>
              <Table.Td ta="right">{error.row}</Table.Td>
              <Table.Td>{error.field}</Table.Td>
              <Table.Td>{error.message}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
