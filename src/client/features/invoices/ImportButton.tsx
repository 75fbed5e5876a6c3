import { Alert, Button, Divider, FileInput, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useRef, useState } from 'react';
import { IMPORT_COLUMNS } from '../../../shared/schemas/imports';
import type { InvoiceSource } from '../../../shared/schemas/invoices';
import type { ImportReport, ImportResult } from '../../../shared/types';
import { ApiError } from '../../lib/api';
import { notify } from '../../lib/toast/notify';
import { sendImport, useImports } from './api';
import { ImportPreview } from './ImportPreview';
import { PastImports } from './PastImports';

type Step = { kind: 'idle' } | { kind: 'checking'; file: File } | { kind: 'checked'; file: File; report: ImportReport } | { kind: 'failed'; message: string };

/** The check a refused import answers with (400), when its body is one. */
const reportOf = (error: unknown) =>
  error instanceof ApiError && error.body && typeof error.body === 'object' && 'preview' in error.body ? (error.body as ImportReport) : null;

const summaryOf = ({ rows, valid, duplicates, errors }: ImportReport) =>
  `${rows.toLocaleString()} ${rows === 1 ? 'row' : 'rows'}: ${valid.toLocaleString()} valid, ${duplicates.toLocaleString()} already in the ledger (skipped), ${errors.length.toLocaleString()} ${errors.length === 1 ? 'problem' : 'problems'}`;

/** "Import CSV": pick a vendor's file, see every row checked, import it whole as drafts, or undo a past import. */
export function ImportButton({ source, title, onImported }: { source: InvoiceSource; title: string; onImported: () => unknown }) {
  const [opened, dialog] = useDisclosure(false);
  const phone = useMediaQuery('(max-width: 48em)');
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [importing, setImporting] = useState(false);
  // The same list Past imports shows, refreshed once an import lands.
  const imports = useImports(source, opened);

  // Only the newest check's answer is shown: a file picked (or checked again) meanwhile wins.
  const latest = useRef(0);
  const check = async (file: File | null) => {
    latest.current += 1;
    const mine = latest.current;
    if (!file) return setStep({ kind: 'idle' });
    setStep({ kind: 'checking', file });
    try {
      const report = await sendImport<ImportReport>(source, file, file.name, true);
      if (mine === latest.current) setStep({ kind: 'checked', file, report });
    } catch (error) {
      if (mine === latest.current) setStep({ kind: 'failed', message: (error as Error).message });
    }
  };

  // An undone import's lines are no longer in the ledger: the open file is checked again, so its
  // rows stop counting as already imported.
  const afterUndo = () => Promise.all([onImported(), step.kind === 'checked' ? check(step.file) : null]);

  const runImport = async () => {
    if (step.kind !== 'checked' || importing) return;
    setImporting(true);
    try {
      const result = await sendImport<ImportResult>(source, step.file, step.file.name, false);
      notify.success('Lines imported', `${result.created.toLocaleString()} created as drafts, ${result.duplicates.toLocaleString()} skipped`);
      setStep({ kind: 'idle' });
      await Promise.all([imports.mutate(), onImported()]);
    } catch (error) {
      notify.error('Nothing imported', (error as Error).message);
      const report = reportOf(error);
      if (report) setStep({ kind: 'checked', file: step.file, report });
    } finally {
      setImporting(false);
    }
  };

  const report = step.kind === 'checked' ? step.report : null;
  const toCreate = report ? report.valid - report.duplicates : 0;
  return (
    <>
      <Button variant="light" onClick={dialog.open}>
        Import CSV
      </Button>
      <Modal opened={opened} onClose={dialog.close} title={`Import lines into ${title}`} size="80rem" fullScreen={phone}>
        <Stack>
          <Text size="sm">
            A header row and one line per row; columns in any order: {IMPORT_COLUMNS.join(', ')} (reference optional). Comma, semicolon or tab; up to 10,000 rows. Every row is checked
            first; the file is imported whole, as draft lines, or not at all. A row the ledger already holds (same month, reference and values) is skipped; one whose reference it holds with other values is a problem to fix.
          </Text>
          <FileInput
            label="CSV file"
            placeholder="Choose a file"
            accept=".csv,text/csv"
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the file' }}
            value={step.kind === 'checked' || step.kind === 'checking' ? step.file : null}
            onChange={(file) => void check(file)}
          />
          <div aria-live="polite" aria-busy={step.kind === 'checking'}>
            {step.kind === 'checking' ? (
              <Group gap="xs">
                <Loader size="sm" aria-label="Checking the file" />
                <Text size="sm">Checking every row…</Text>
              </Group>
            ) : null}
            {step.kind === 'failed' ? (
              <Alert color="red" title="The file cannot be read">
                {step.message}
              </Alert>
            ) : null}
            {report ? (
              <Text size="sm" fw={600} data-testid="import-summary">
                {summaryOf(report)}
              </Text>
            ) : null}
          </div>
          {report ? <ImportPreview report={report} /> : null}
          {report ? (
            <Group>
              <Button onClick={() => void runImport()} loading={importing} disabled={importing || report.errors.length > 0 || toCreate === 0}>
                {report.errors.length ? 'Fix the problems to import' : `Import ${toCreate.toLocaleString()} ${toCreate === 1 ? 'line' : 'lines'}`}
              </Button>
            </Group>
          ) : null}
          <Divider />
          <PastImports source={source} onUndone={afterUndo} />
        </Stack>
      </Modal>
    </>
  );
}
