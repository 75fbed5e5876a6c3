import { describe, expect, it } from 'vitest';
import { showsChange } from '../../src/client/lib/live/entity-paths';
import type { AuditEntity } from '../../src/shared/types';

const changed = (entries: [AuditEntity, number[]][]) => new Map(entries.map(([entity, ids]) => [entity, new Set(ids)]));

describe('showsChange: what a change re-reads', () => {
  const ticket5 = changed([['ticket', [5]]]);

  it('re-reads the lists of the changed kind and the changed record with all under it', () => {
    for (const path of ['tickets', 'tickets?page=2&status=open', 'dashboard', 'tickets/5', 'tickets/5/watchers', 'tickets/5/comments?page=1', 'audit?entity=ticket&entityId=5&page=1']) {
      expect({ path, shown: showsChange(path, ticket5) }).toEqual({ path, shown: true });
    }
  });

  it('leaves another record of the same kind, what is under it and its history be', () => {
    for (const path of ['tickets/12', 'tickets/12/watchers', 'tickets/55', 'audit?entity=ticket&entityId=12&page=1', 'users', 'users/5', 'companies/5']) {
      expect({ path, shown: showsChange(path, ticket5) }).toEqual({ path, shown: false });
    }
  });

  it('still re-reads a record of another kind that shows the changed one, such as a ticket showing a person', () => {
    const user5 = changed([['user', [5]]]);
    expect(showsChange('tickets/12', user5)).toBe(true);
    expect(showsChange('audit?entity=ticket&entityId=12', user5)).toBe(true);
    expect(showsChange('users/12', user5)).toBe(false);
    expect(showsChange('users/5', user5)).toBe(true);
  });

  it('takes every changed id and kind together', () => {
    const several = changed([['ticket', [5, 12]], ['timesheet', [3]]]);
    expect(['tickets/12', 'tickets/7', 'timesheets?week=2026-W44', 'companies/3', 'audit?entity=timesheet&entityId=4', 'audit?entity=timesheet&entityId=3'].map((path) => showsChange(path, several))).toEqual([
      true,
      false,
      true,
      false,
      // Another kind's history is re-read on a ticket's change, as before: it may name the ticket.
      true,
      true,
    ]);
    // A company's name is on every ticket of it.
    expect(showsChange('tickets/7', changed([['company', [3]]]))).toBe(true);
    expect(showsChange('tickets', new Map())).toBe(false);
  });
});
