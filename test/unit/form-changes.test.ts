import { describe, expect, it } from 'vitest';
import { changedFields, clashesOf, overwriteOf, patchOf } from '../../src/client/lib/form/changes';

// Ben and the admin load ticket #96 with the same values; Ben saves Priority and Description first.
const loaded = { title: 'Printer jams', description: 'Old text', priority: 'normal', companyId: 3, dueAt: null };
const bens = { ...loaded, priority: 'high', description: "Ben's text" };

describe('form changes', () => {
  it('a save sends only the fields changed since the form was loaded', () => {
    const admins = { ...loaded, title: 'Printer jams on floor 2' };
    expect(changedFields(loaded, admins)).toEqual(['title']);
    expect(patchOf(loaded, admins)).toEqual({ title: 'Printer jams on floor 2' });
    expect(patchOf(loaded, loaded)).toEqual({});
  });

  it("keeps the record's id in the body, and sends a cleared field as empty rather than dropping it", () => {
    const user = { id: 7, firstName: 'Ben', surname: 'Banda' };
    expect(patchOf(user, { ...user, surname: 'Bandah' })).toEqual({ id: 7, surname: 'Bandah' });
    expect(patchOf(loaded, { ...loaded, description: undefined, companyId: undefined })).toEqual({ description: '', companyId: null });
    // An empty box loaded as null or '' is not a change.
    expect(changedFields({ reference: '', dueAt: null }, { reference: undefined, dueAt: '' })).toEqual([]);
  });

  it('overwriting over a colleague who changed other fields leaves their fields alone', () => {
    const admins = { ...loaded, title: 'Printer jams on floor 2' };
    expect(clashesOf(loaded, admins, bens)).toEqual([]);
    expect(overwriteOf(loaded, admins, bens, {})).toEqual({ title: 'Printer jams on floor 2' });
  });

  it('finds the fields both changed to different values, and the overwrite sends the picked ones', () => {
    const admins = { ...loaded, title: 'New title', priority: 'urgent', description: "Ben's text" };
    // Both set the description to the same words: no clash. Priority differs: a clash.
    expect(clashesOf(loaded, admins, bens)).toEqual([{ field: 'priority', theirs: 'high', mine: 'urgent' }]);
    expect(overwriteOf(loaded, admins, bens, { priority: 'mine' })).toEqual({ title: 'New title', priority: 'urgent', description: "Ben's text" });
    expect(overwriteOf(loaded, admins, bens, { priority: 'theirs' })).toEqual({ title: 'New title', description: "Ben's text" });
  });
});
