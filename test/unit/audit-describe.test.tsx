import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it } from 'vitest';
import { ChangeList } from '../../src/client/lib/audit/ChangeList';
import { actorOf, describeChanges, fieldLabel, formatValue, recordLabel } from '../../src/client/lib/audit/describe';
import { formatCents, formatDate, formatDateTime, formatMinutes } from '../../src/client/lib/format';
import type { AuditEntry } from '../../src/shared/types';

const entry = (action: AuditEntry['action'], changes: AuditEntry['changes']) => ({ action, changes });

describe('describeChanges: an audit entry as readable lines', () => {
  it('labels API fields and shows statuses, priorities and roles as the pages word them', () => {
    expect(
      describeChanges(entry('update', { status: ['in_progress', 'on_hold'], priority: ['normal', 'urgent'], role: ['staff', 'billing'] })),
    ).toEqual([
      { field: 'status', label: 'Status', kind: 'changed', before: 'In progress', after: 'On hold' },
      { field: 'priority', label: 'Priority', kind: 'changed', before: 'Normal', after: 'Urgent' },
      { field: 'role', label: 'Role', kind: 'changed', before: 'Staff', after: 'Billing' },
    ]);
  });

  it('shows a password only as changed, with no values even if some were sent', () => {
    const lines = describeChanges(entry('password', { password: [null, null] }));
    expect(lines).toEqual([{ field: 'password', label: 'Password', kind: 'secret', before: '', after: 'changed' }]);
    const leaked = describeChanges(entry('update', { password: ['old-secret', 'new-secret'] }));
    expect(JSON.stringify(leaked)).not.toMatch(/old-secret|new-secret/);
    expect(leaked[0]?.after).toBe('changed');
  });

  it('money from cents, minutes as time, active flags, dates and empty values', () => {
    const [price, amount, minutes, active, due, empty] = describeChanges(
      entry('update', {
        unitPriceCents: [1250, 1999],
        amountCents: [0, 250_000],
        minutes: [30, 90],
        isActive: [true, false],
        dueAt: [null, '2026-12-01'],
        reference: ['', 'PO-7'],
      }),
    );
    expect(price).toMatchObject({ label: 'Unit price', before: formatCents(1250), after: formatCents(1999) });
    expect(amount).toMatchObject({ label: 'Amount', before: formatCents(0), after: formatCents(250_000) });
    expect(minutes).toMatchObject({ label: 'Time', before: '30 min', after: '1 h 30 min' });
    expect(active).toMatchObject({ label: 'Status', before: 'Active', after: 'Inactive' });
    expect(due).toMatchObject({ label: 'Due date', kind: 'changed', before: '—', after: formatDate('2026-12-01T00:00:00') });
    expect(empty).toMatchObject({ label: 'Reference', before: '—', after: 'PO-7' });
  });

  it("a record's first values (create, comment, time) read as set, not as a change from nothing", () => {
    expect(describeChanges(entry('create', { title: [null, 'Printer on fire'], status: [null, 'open'] }))).toEqual([
      { field: 'title', label: 'Title', kind: 'set', before: '—', after: 'Printer on fire' },
      { field: 'status', label: 'Status', kind: 'set', before: '—', after: 'Open' },
    ]);
    expect(describeChanges(entry('comment', { body: [null, 'Looking into it'] }))[0]).toMatchObject({ label: 'Comment', kind: 'set', after: 'Looking into it' });
  });

  it("a deleted record's entry shows the values it had", () => {
    expect(describeChanges(entry('delete', { name: ['Acme', null], isActive: [true, null] }))).toEqual([
      { field: 'name', label: 'Name', kind: 'set', before: '', after: 'Acme' },
      { field: 'isActive', label: 'Status', kind: 'set', before: '', after: 'Active' },
    ]);
  });

  it("leaves a new record's empty fields out, but keeps a change to empty", () => {
    expect(describeChanges(entry('create', { title: [null, 'T'], description: [null, ''] })).map((change) => change.label)).toEqual(['Title']);
    expect(describeChanges(entry('update', { description: ['Old words', ''] }))[0]).toMatchObject({ before: 'Old words', after: '—' });
  });

  it('keeps free text as typed: a title that looks like a status word is not reworded', () => {
    expect(describeChanges(entry('update', { title: ['open', 'in_progress'] }))[0]).toMatchObject({ before: 'open', after: 'in_progress' });
  });

  it('names related records through the formats a page passes, and by number otherwise', () => {
    const companies: Record<string, string> = { '3': 'Acme', '5': 'Globex' };
    const formats = { companyId: (value: unknown) => companies[String(value)] };
    expect(describeChanges(entry('update', { companyId: [3, 5] }), formats)[0]).toMatchObject({ label: 'Company', before: 'Acme', after: 'Globex' });
    expect(describeChanges(entry('update', { companyId: [3, 9] }), formats)[0]).toMatchObject({ before: 'Acme', after: '#9' });
    expect(describeChanges(entry('update', { assigneeId: [7, null] }))[0]).toMatchObject({ label: 'Assignee', before: '#7', after: '—' });
  });

  it("uses the provider's names for the ids in an entry before the page's, and the page's for ids it did not name", () => {
    const formats = { companyId: (value: unknown) => (value === 9 ? 'Initech (page)' : undefined) };
    const named = { action: 'update' as const, changes: { companyId: [3, 9] as [unknown, unknown], assigneeId: [7, 8] as [unknown, unknown] }, names: { companyId: { '3': 'Acme' }, assigneeId: { '7': 'Ben Banda', '8': 'Chloe Carter' } } };
    const [company, assignee] = describeChanges(named, formats);
    expect(company).toMatchObject({ label: 'Company', before: 'Acme', after: 'Initech (page)' });
    expect(assignee).toMatchObject({ label: 'Assignee', before: 'Ben Banda', after: 'Chloe Carter' });
  });

  it('names the record by the name people use when the provider sent one, by kind and number otherwise', () => {
    expect(recordLabel({ entity: 'statement', entityId: 2, recordName: 'GIFS-2026-10-1' })).toBe('Statement: GIFS-2026-10-1');
    expect(recordLabel({ entity: 'session', entityId: 27, recordName: 'Ben Banda' })).toBe('Sign-in: Ben Banda');
    expect(recordLabel({ entity: 'company', entityId: 16, recordName: null })).toBe('Company #16');
    expect(recordLabel({ entity: 'backup', entityId: null })).toBe('Backup');
  });

  it('spells out fields it does not know yet and shows odd values as JSON', () => {
    expect(fieldLabel('billingContactEmail')).toBe('Billing contact email');
    expect(fieldLabel('last_seen')).toBe('Last seen');
    expect(formatValue('tags', ['a', 'b'])).toBe('["a","b"]');
    expect(formatValue('issuedAt', '2026-11-23T10:00:00.000Z')).toBe(formatDateTime('2026-11-23T10:00:00.000Z'));
    expect(formatValue('period', '2026-02')).toMatch(/2026/);
    expect(formatValue('billable', false)).toBe('No');
  });

  it("reads a calendar's hours and holidays, and a policy's targets, as people write them, whether stored as JSON text or as arrays", () => {
    const hours = [
      { day: 1, from: '09:00', to: '17:30' },
      { day: 6, from: '22:00', to: '06:00' },
    ];
    expect(formatValue('hours', JSON.stringify(hours))).toBe('Mon 09:00–17:30, Sat 22:00–06:00');
    expect(formatValue('hours', hours)).toBe('Mon 09:00–17:30, Sat 22:00–06:00');
    expect(formatValue('hours', '[]')).toBe('Around the clock');
    expect(formatValue('holidays', '["2026-12-25"]')).toBe(formatDate('2026-12-25'));
    expect(formatValue('holidays', [])).toBe('None');
    // Text that only looks like a list is shown as it is.
    expect(formatValue('hours', '[not json')).toBe('[not json');
    expect(formatValue('firstResponseMinutes', 90)).toBe(formatMinutes(90));
    expect(describeChanges({ action: 'update', changes: { hours: ['[]', JSON.stringify(hours.slice(0, 1))] } })[0]).toMatchObject({
      label: 'Hours',
      before: 'Around the clock',
      after: 'Mon 09:00–17:30',
    });
  });

  it('an entry with no changes (a sign-in) has no lines', () => {
    expect(describeChanges(entry('login', {}))).toEqual([]);
  });

  it('names the actor, or says who is unknown', () => {
    expect(actorOf({ actorId: 2, actorName: 'Ben Banda' })).toBe('Ben Banda');
    expect(actorOf({ actorId: 2, actorName: null })).toBe('User #2');
    expect(actorOf({ actorId: null, actorName: null })).toBe('Someone unknown');
    expect(actorOf({ actorId: null, actorName: null, requestId: null })).toBe('Someone unknown');
    expect(actorOf({ actorId: null, actorName: null, action: 'login_failed', changes: { method: [null, 'passkey'] } })).toBe('Unrecognised passkey');
    expect(actorOf({ actorId: null, actorName: null, action: 'login_failed', changes: { method: [null, 'access'] } })).toBe('Unverified Access sign-in');
    expect(actorOf({ actorId: null, actorName: null, action: 'login_failed', changes: { email: [null, 'x@example.com'], method: [null, 'access'] } })).toBe('x@example.com');
    // The first admin, made by `npm run admin:create` before anyone could sign in.
    expect(actorOf({ actorId: null, actorName: null, requestId: 'setup' })).toBe('Setup');
    expect(actorOf({ actorId: 2, actorName: 'Ben Banda', requestId: 'setup' })).toBe('Ben Banda');
  });

  it('names a failed sign-in by the email tried', () => {
    expect(actorOf({ actorId: null, actorName: null, action: 'login_failed', changes: { email: [null, 'who@example.com'] } })).toBe('who@example.com');
    // Entries written before the email was kept still say who is unknown.
    expect(actorOf({ actorId: null, actorName: null, action: 'login_failed', changes: {} })).toBe('Someone unknown');
    expect(actorOf({ actorId: null, actorName: null, action: 'update', changes: { email: [null, 'x@example.com'] } })).toBe('Someone unknown');
  });
});

describe('ChangeList', () => {
  afterEach(cleanup);
  const show = (changes: AuditEntry['changes'], action: AuditEntry['action'] = 'update') =>
    render(
      <MantineProvider>
        <ChangeList entry={{ action, changes }} />
      </MantineProvider>,
    );

  it('shows each field as before → after, and says "changed to" to screen readers', () => {
    show({ status: ['open', 'resolved'] });
    const item = screen.getByRole('listitem');
    expect(item).toHaveTextContent('Status: Open → changed to Resolved');
    expect(item.querySelector('[aria-hidden="true"]')).toHaveTextContent('→');
  });

  it('shows a password as changed with no arrow and no values', () => {
    show({ password: [null, null] }, 'password');
    expect(screen.getByRole('listitem')).toHaveTextContent(/^Password: changed$/);
  });

  it("shows a comment's mentions as the people's names now, not as markup or the names typed in them", () => {
    render(
      <MantineProvider>
        <SWRConfig value={{ provider: () => new Map() }}>
          <ChangeList
            entry={{ action: 'comment_edit', changes: { body: ['Ask @[Chloe Carter](user:4)', 'Ask @[Chloe Carter](user:4) and @[Dan Dare](user:5)'] } }}
            people={[
              { value: '4', label: 'Chloe Hart', active: true },
              { value: '5', label: 'Dan Dare', active: false },
            ]}
          />
        </SWRConfig>
      </MantineProvider>,
    );
    const item = screen.getByRole('listitem');
    expect(item).toHaveTextContent('Comment: Ask @Chloe Hart → changed to Ask @Chloe Hart and @Dan Dare');
    expect(item.textContent).not.toMatch(/user:|\]\(/);
  });

  it('renders nothing for an entry without changes', () => {
    const { container } = show({}, 'login');
    expect(container.querySelector('ul')).toBeNull();
  });
});
