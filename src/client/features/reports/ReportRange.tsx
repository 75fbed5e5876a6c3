import { Button, Group, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState, type ChangeEvent, type ReactNode } from 'react';
import { rangeParts, rangeValue } from '../../lib/addresses/reports';
import { today } from '../../lib/today';
import { isValidRange, lastYear, RANGE_PRESETS, rangeErrors, type DayRange } from './report-range';

// How long typing must pause before a date counts: a year typed digit by digit passes through
// whole but wrong dates (0002, 0020, 0202) that should neither flash an error nor be fetched.
const SETTLE_MS = 400;

/** Writes the range to the page's address; `replace` while someone types. */
type SetRange = (range: string, options: { replace: boolean }) => void;

/**
 * A report's from–to range, kept in the address as `range` (`YYYY-MM-DD..YYYY-MM-DD`): the last
 * year when the address names none or an invalid one; the fields' own text while someone types,
 * followed by the report once it settles into a valid range.
 */
export function useReportRange(address: string | undefined, setRange: SetRange) {
  const range = useMemo(() => {
    const fromAddress = address ? rangeParts(address) : null;
    return fromAddress && isValidRange(fromAddress) ? fromAddress : lastYear(today());
  }, [address]);
  const [draft, setDraft] = useState<DayRange>(range);
  const [draftOf, setDraftOf] = useState(range);
  if (draftOf !== range) {
    // The address moved (Back, a link, a preset, a valid edit): the fields show what it now says.
    setDraftOf(range);
    setDraft(range);
  }
  const [settled] = useDebouncedValue(draft, SETTLE_MS);
  // Messages wait for the pause too, and go as soon as typing resumes; a stale settled value (the
  // address just moved on) neither shows messages nor moves the address back.
  const current = settled === draft;
  const errors = current ? rangeErrors(settled) : {};
  const settledValid = current && isValidRange(settled);
  useEffect(() => {
    if (settledValid && rangeValue(settled) !== rangeValue(range)) setRange(rangeValue(settled), { replace: true });
  }, [settled, settledValid, range, setRange]);
  // The value is read while the event is current; React may run the state update later.
  const edit = (field: keyof DayRange) => (event: ChangeEvent<HTMLInputElement>) => {
    const { value } = event.currentTarget;
    setDraft((now) => ({ ...now, [field]: value }));
  };
  return { range, draft, errors, edit, setRange };
}

export type ReportRangeState = ReturnType<typeof useReportRange>;

/** The range's From and To fields with the page's other filters beside them, then the presets. */
export function ReportRangeControls({ state, children }: { state: ReportRangeState; children?: ReactNode }) {
  const { range, draft, errors, edit, setRange } = state;
  const preset = RANGE_PRESETS.find((p) => rangeValue(p.range(today())) === rangeValue(range));
  return (
    <>
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput type="date" label="From" value={draft.from} max={draft.to} onChange={edit('from')} error={errors.from} />
        <TextInput type="date" label="To" value={draft.to} min={draft.from} onChange={edit('to')} error={errors.to} />
        {children}
      </Group>
      <Group gap="xs" mb="md" role="group" aria-label="Date range presets">
        {RANGE_PRESETS.map((p) => (
          <Button key={p.label} size="xs" variant={preset === p ? 'filled' : 'default'} aria-pressed={preset === p} onClick={() => setRange(rangeValue(p.range(today())), { replace: false })}>
            {p.label}
          </Button>
        ))}
      </Group>
    </>
  );
}
