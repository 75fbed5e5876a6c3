import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'react-hot-toast';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/client/lib/api';
import { TextField, TextareaField } from '../../src/client/lib/form/fields';
import { MutationForm } from '../../src/client/lib/form/MutationForm';
import { SubmitButton } from '../../src/client/lib/form/SubmitButton';
import type { Mutation } from '../../src/client/lib/form/use-mutation';
import type { EditedRecord } from '../../src/client/lib/form/MutationForm';
import { emitLive } from '../../src/client/lib/live/bus';

// The one way the app writes, as people meet it: Mantine fields in a MutationForm, real toasts,
// and errors shaped as the provider sends them (ApiError carries the parsed body).
interface Values {
  name: string;
  note: string;
}
interface Saved extends Values {
  id: number;
  version: number;
}

const fetchMock = vi.fn<typeof fetch>();

/** A promise the test settles by hand, to look at the form while the request is still running. */
const deferred = <T,>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

// A test of its own record id reads its own history: SWR would take another test's recent read of the same address for this one's.
type RecordOptions = Partial<Pick<EditedRecord<Values, Saved>, 'id' | 'read' | 'row' | 'onReload'>>;

const renderForm = (mutation: Mutation<Values, Saved>, options: { version?: number; draftKey?: string; record?: RecordOptions } = {}) =>
  render(
    <MantineProvider>
      <Toaster />
      <MutationForm<Values, Saved>
        mutation={mutation}
        initialValues={{ name: 'Acme', note: '' }}
        draft={options.draftKey ? { key: options.draftKey, fields: ['note'] } : undefined}
        record={
          options.version === undefined
            ? undefined
            : { entity: 'company', id: 5, version: options.version, valuesOf: ({ name, note }) => ({ name, note }), ...options.record }
        }
      >
        {({ submitting }) => (
          <>
            <TextField name="name" label="Name" />
            <TextareaField name="note" label="Note" />
            <SubmitButton label="Save" submitting={submitting} />
          </>
        )}
      </MutationForm>
    </MantineProvider>,
  );

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const errorFor = (label: string) => {
  const id = screen.getByLabelText(label).getAttribute('aria-describedby')?.split(' ').find((part) => part.endsWith('-error'));
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
};

beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  act(() => toast.remove());
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  sessionStorage.clear();
});

const mutationWith = (send: Mutation<Values, Saved>['send'], extra: Partial<Mutation<Values, Saved>> = {}): Mutation<Values, Saved> => ({
  send,
  success: (saved) => ['Company saved', saved.name],
  failure: 'Company not saved',
  ...extra,
});

describe('MutationForm', () => {
  it('disables the submit while the request runs, sends once however often it is clicked, then toasts the success', async () => {
    const answer = deferred<Saved>();
    const send = vi.fn(() => answer.promise);
    const onSuccess = vi.fn();
    renderForm(mutationWith(send, { onSuccess }));
    type('Name', 'Acme Ltd');
    save();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled());
    save();
    save();
    expect(send).toHaveBeenCalledTimes(1);
    expect(send).toHaveBeenCalledWith({ name: 'Acme Ltd', note: '' }, undefined);

    await act(async () => answer.resolve({ id: 5, version: 2, name: 'Acme Ltd', note: '' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled());
    expect(await screen.findByText('Company saved')).toBeInTheDocument();
    expect(onSuccess).toHaveBeenCalledWith({ id: 5, version: 2, name: 'Acme Ltd', note: '' }, { name: 'Acme Ltd', note: '' });
  });

  it("shows a 409's field error under its field, keeps what was typed and toasts the error", async () => {
    const detail = 'A company with this name already exists';
    const send = vi.fn(() => Promise.reject(new ApiError(409, detail, { title: 'Conflict', status: 409, detail, errors: { name: [detail] } })));
    const onSuccess = vi.fn();
    renderForm(mutationWith(send, { onSuccess }));
    type('Name', 'Globex');
    type('Note', 'A long note that must not be lost');
    save();
    await waitFor(() => expect(errorFor('Name')).toBe(detail));
    expect(screen.getByLabelText('Name')).toHaveValue('Globex');
    expect(screen.getByLabelText('Note')).toHaveValue('A long note that must not be lost');
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText('Company not saved')).toBeInTheDocument();
    expect(onSuccess).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Save' })).toBeEnabled();

    // Editing the field takes the server's message away; it was about the old value.
    type('Name', 'Globex 2');
    await waitFor(() => expect(errorFor('Name')).toBeNull());
  });

  it("maps a 400's errors given as plain strings, and leaves fields the server did not name alone", async () => {
    const send = vi.fn(() => Promise.reject(new ApiError(400, 'note: Too long', { message: 'note: Too long', errors: { note: 'Too long' } })));
    renderForm(mutationWith(send));
    type('Note', 'x'.repeat(20));
    save();
    await waitFor(() => expect(errorFor('Note')).toBe('Too long'));
    expect(errorFor('Name')).toBeNull();
    expect(screen.getByLabelText('Note')).toHaveValue('x'.repeat(20));
  });

  it('keeps the input when the server cannot be reached', async () => {
    const send = vi.fn(() => Promise.reject(new ApiError(0, 'Could not reach the server')));
    renderForm(mutationWith(send));
    type('Note', 'typed before the network went away');
    save();
    expect(await screen.findByText('Could not reach the server')).toBeInTheDocument();
    expect(screen.getByLabelText('Note')).toHaveValue('typed before the network went away');
  });

  it('sends the loaded version as If-Match; a 412 shows the conflict and keeps the edits until a choice is made', async () => {
    fetchMock.mockImplementation(async () =>
      Response.json({
        items: [{ id: 1, at: '2026-11-23T10:00:00Z', actorId: 2, actorName: 'Sam Smith', action: 'update', entity: 'company', entityId: 5, changes: { name: ['Acme', 'Acme Corp'] }, requestId: null }],
        total: 1,
        page: 1,
        pageSize: 1,
      }),
    );
    const theirs: Saved = { id: 5, version: 4, name: 'Acme Corp', note: 'their note' };
    const send = vi
      .fn<Mutation<Values, Saved>['send']>()
      .mockRejectedValueOnce(new ApiError(412, 'Precondition Failed', theirs))
      .mockResolvedValueOnce({ id: 5, version: 5, name: 'Mine', note: 'my note' });
    renderForm(mutationWith(send), { version: 3 });
    type('Name', 'Mine');
    type('Note', 'my note');
    save();

    const notice = await screen.findByTestId('conflict-notice');
    expect(send).toHaveBeenLastCalledWith({ name: 'Mine', note: 'my note' }, 3);
    await waitFor(() => expect(notice).toHaveTextContent('Sam Smith saved a newer version'));
    expect(notice).toHaveTextContent('Your save was held back so it would not overwrite theirs; your changes are still below.');
    expect(notice).toHaveTextContent('What they changed:Name: Acme → changed to Acme Corp');
    expect(fetchMock.mock.calls[0]?.[0]).toContain('audit?entity=company&entityId=5');
    expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue('Mine');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('my note');
    expect(screen.queryByText('Company not saved')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Overwrite with mine' }));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    expect(send).toHaveBeenLastCalledWith({ name: 'Mine', note: 'my note' }, 4);
    await waitFor(() => expect(screen.queryByTestId('conflict-notice')).toBeNull());
  });

  it('an edit sends only the changed fields; an overwrite keeps their other changes and sends the value picked for a field both changed', async () => {
    fetchMock.mockImplementation(async () => Response.json({ items: [], total: 0, page: 1, pageSize: 1 }));
    // They changed both fields meanwhile; this person changed both too, and keeps their own note.
    const theirs: Saved = { id: 5, version: 4, name: 'Acme Corp', note: 'their note' };
    const send = vi
      .fn<Mutation<Values, Saved>['send']>()
      .mockRejectedValueOnce(new ApiError(412, 'Precondition Failed', theirs))
      .mockResolvedValueOnce({ id: 5, version: 5, name: 'Acme Corp', note: 'my note' });
    renderForm(mutationWith(send), { version: 3 });
    type('Name', 'Mine');
    type('Note', 'my note');
    save();
    const notice = await screen.findByTestId('conflict-notice');
    expect(send).toHaveBeenLastCalledWith({ name: 'Mine', note: 'my note' }, 3);
    fireEvent.click(within(within(notice).getByRole('radiogroup', { name: 'Name' })).getByRole('radio', { name: 'Theirs: Acme Corp' }));
    fireEvent.click(screen.getByRole('button', { name: 'Overwrite with mine' }));
    await waitFor(() => expect(send).toHaveBeenCalledTimes(2));
    expect(send).toHaveBeenLastCalledWith({ note: 'my note' }, 4);
    await waitFor(() => expect(screen.queryByTestId('conflict-notice')).toBeNull());
    expect(screen.getByLabelText('Name')).toHaveValue('Acme Corp');
    expect(screen.getByLabelText('Note')).toHaveValue('my note');
  });

  it('an overwrite that gives every field to them writes nothing: the form takes their version', async () => {
    fetchMock.mockImplementation(async () => Response.json({ items: [], total: 0, page: 1, pageSize: 1 }));
    // They changed both fields meanwhile; this person changed only the name.
    const theirs: Saved = { id: 5, version: 4, name: 'Acme Corp', note: 'their note' };
    const send = vi
      .fn<Mutation<Values, Saved>['send']>()
      .mockRejectedValueOnce(new ApiError(412, 'Precondition Failed', theirs));
    renderForm(mutationWith(send), { version: 3 });
    type('Name', 'Mine');
    save();
    const notice = await screen.findByTestId('conflict-notice');
    expect(send).toHaveBeenLastCalledWith({ name: 'Mine' }, 3);

    const name = within(notice).getByRole('radiogroup', { name: 'Name' });
    expect(within(name).getByRole('radio', { name: 'Theirs: Acme Corp' })).not.toBeChecked();
    expect(within(name).getByRole('radio', { name: 'Mine: Mine' })).toBeChecked();
    // Only the name clashes: their note is no choice of this person's.
    expect(within(notice).queryByRole('radiogroup', { name: 'Note' })).toBeNull();
    fireEvent.click(within(name).getByRole('radio', { name: 'Theirs: Acme Corp' }));
    fireEvent.click(screen.getByRole('button', { name: 'Overwrite with mine' }));
    await waitFor(() => expect(screen.queryByTestId('conflict-notice')).toBeNull());
    // No empty PATCH (a comment's schema would refuse one): the form is theirs, to edit from their version.
    expect(send).toHaveBeenCalledTimes(1);
    expect(screen.getByLabelText('Name')).toHaveValue('Acme Corp');
    expect(screen.getByLabelText('Note')).toHaveValue('their note');
  });

  it('"Reload their version" puts their record in the form', async () => {
    fetchMock.mockImplementation(async () => Response.json({ items: [], total: 0, page: 1, pageSize: 1 }));
    const theirs: Saved = { id: 5, version: 7, name: 'Theirs', note: 'their note' };
    const send = vi.fn<Mutation<Values, Saved>['send']>().mockRejectedValueOnce(new ApiError(412, 'Precondition Failed', theirs));
    renderForm(mutationWith(send), { version: 6 });
    type('Name', 'Mine');
    save();
    await screen.findByTestId('conflict-notice');
    fireEvent.click(screen.getByRole('button', { name: 'Reload their version' }));
    await waitFor(() => expect(screen.getByLabelText('Name')).toHaveValue('Theirs'));
    expect(screen.getByLabelText('Note')).toHaveValue('their note');
    expect(screen.queryByTestId('conflict-notice')).toBeNull();
  });

  it("a colleague's save while the form is dirty shows the notice at once: nothing saved yet, the typing kept, what they changed", async () => {
    fetchMock.mockImplementation(async () =>
      Response.json({
        items: [{ id: 1, at: '2026-11-23T10:00:00Z', actorId: 2, actorName: 'Sam Smith', action: 'update', entity: 'company', entityId: 6, changes: { name: ['Acme', 'Acme Corp'] }, requestId: null }],
        total: 1,
        page: 1,
        pageSize: 1,
      }),
    );
    const read = vi.fn(async () => ({ id: 5, version: 4, name: 'Acme Corp', note: '' }));
    renderForm(mutationWith(vi.fn()), { version: 3, record: { id: 6, read } });
    type('Note', 'typed meanwhile');
    act(() => emitLive({ type: 'changed', entity: 'company', id: 6, version: 4, action: 'update', actorId: 2, actorName: 'Sam Smith', at: '2026-11-23T10:00:00Z', seq: 1 }));
    const notice = await screen.findByTestId('conflict-notice');
    await waitFor(() => expect(notice).toHaveTextContent('Sam Smith saved a newer version'));
    expect(notice).toHaveTextContent('You have not saved yet, and what you typed is still below.');
    expect(notice).not.toHaveTextContent('not saved and');
    expect(notice).toHaveTextContent('What they changed:Name: Acme → changed to Acme Corp');
    expect(screen.getByLabelText('Note')).toHaveValue('typed meanwhile');
  });

  it("a row's form (a ticket's comment) checks its own version on the ticket's events, and names the entry that saved it", async () => {
    fetchMock.mockImplementation(async () =>
      Response.json({
        items: [
          // The newest edit is of another comment on the ticket; the one before saved this one.
          { id: 9, at: '2026-11-23T10:05:00Z', actorId: 3, actorName: 'Kim Other', action: 'comment_edit', entity: 'ticket', entityId: 7, changes: { note: ['x', 'another comment'] }, requestId: null },
          { id: 8, at: '2026-11-23T10:00:00Z', actorId: 2, actorName: 'Sam Smith', action: 'comment_edit', entity: 'ticket', entityId: 7, changes: { note: ['', 'their words'] }, requestId: null },
        ],
        total: 2,
        page: 1,
        pageSize: 20,
      }),
    );
    const read = vi.fn(async () => ({ id: 5, version: 4, name: 'Acme', note: 'their words' }));
    renderForm(mutationWith(vi.fn()), { version: 3, record: { id: 7, read, row: { action: 'comment_edit' } } });
    type('Note', 'my words');
    // The ticket's own version is older than the comment's: no reason to skip the check.
    act(() => emitLive({ type: 'changed', entity: 'company', id: 7, version: 1, action: 'comment_edit', actorId: 2, actorName: 'Sam Smith', at: '2026-11-23T10:00:00Z', seq: 1 }));
    const notice = await screen.findByTestId('conflict-notice');
    await waitFor(() => expect(notice).toHaveTextContent('Sam Smith saved a newer version'));
    expect(fetchMock.mock.calls[0]?.[0]).toContain('action=comment_edit');
    expect(within(notice).getByTestId('change-list')).toHaveTextContent('Note: — → changed to their words');
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('my words');
  });

  it("a clean row form takes the colleague's version quietly", async () => {
    const read = vi.fn(async () => ({ id: 5, version: 4, name: 'Acme', note: 'their words' }));
    const onReload = vi.fn();
    renderForm(mutationWith(vi.fn()), { version: 3, record: { id: 8, read, onReload, row: { action: 'comment_edit' } } });
    act(() => emitLive({ type: 'changed', entity: 'company', id: 8, version: 1, action: 'comment_edit', actorId: 2, actorName: 'Sam Smith', at: '2026-11-23T10:00:00Z', seq: 1 }));
    await waitFor(() => expect(onReload).toHaveBeenCalledWith({ id: 5, version: 4, name: 'Acme', note: 'their words' }));
    expect(screen.queryByTestId('conflict-notice')).toBeNull();
    expect(screen.queryByTestId('updated-by')).toBeNull();
  });

  it('keeps a draft of long text in session storage until it is saved, and restores it', async () => {
    const send = vi.fn(() => Promise.reject(new ApiError(500, 'Internal Server Error')));
    const first = renderForm(mutationWith(send), { draftKey: 'company:5' });
    type('Note', 'half-written thought');
    save();
    await screen.findByText('Company not saved');
    first.unmount();

    renderForm(mutationWith(vi.fn(async (values: Values) => ({ ...values, id: 5, version: 2 }))), { draftKey: 'company:5' });
    await waitFor(() => expect(screen.getByLabelText('Note')).toHaveValue('half-written thought'));
    save();
    await screen.findByText('Company saved');
    expect(sessionStorage.length).toBe(0);
  });
});
