import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ViewMessage } from '../../src/shared/live';
import { holdView, setLiveSender } from '../../src/client/lib/live/bus';

// A socket has one view (docs/architecture.md#live-updates): the forms open on a page share it, so
// a dialog over a ticket's drawer, and its closing, leave the person on the ticket.
const settle = () => new Promise<void>((resolve) => queueMicrotask(resolve));

afterEach(() => setLiveSender(null));

describe('the view the socket is told', () => {
  it('a dialog on the ticket says editing while dirty, and closing it goes back to the ticket, never to no record', async () => {
    const sent: ViewMessage[] = [];
    setLiveSender((view) => sent.push(view));
    const drawer = holdView('ticket', 12);
    await settle();
    const dialog = holdView('ticket', 12);
    dialog.editing(true);
    await settle();
    dialog.release();
    await settle();
    expect(sent).toEqual([
      { type: 'view', entity: 'ticket', id: 12, editing: false },
      { type: 'view', entity: 'ticket', id: 12, editing: true },
      { type: 'view', entity: 'ticket', id: 12, editing: false },
    ]);
    drawer.release();
    await settle();
    expect(sent.at(-1)).toEqual({ type: 'view', entity: null });
  });

  it('a form remounting within one render says nothing: no brief leave the others would see', async () => {
    const send = vi.fn<(view: ViewMessage) => void>();
    const first = holdView('ticket', 3);
    await settle();
    setLiveSender(send);
    send.mockClear();
    first.release();
    const second = holdView('ticket', 3);
    await settle();
    expect(send).not.toHaveBeenCalled();
    second.release();
    second.release();
    await settle();
    expect(send).toHaveBeenLastCalledWith({ type: 'view', entity: null });
  });

  it('the newest record is the view, while an older form on another record is still open', async () => {
    const sent: ViewMessage[] = [];
    setLiveSender((view) => sent.push(view));
    const ticket = holdView('ticket', 4);
    ticket.editing(true);
    const company = holdView('company', 9);
    await settle();
    expect(sent.at(-1)).toEqual({ type: 'view', entity: 'company', id: 9, editing: false });
    company.release();
    await settle();
    expect(sent.at(-1)).toEqual({ type: 'view', entity: 'ticket', id: 4, editing: true });
    ticket.release();
    await settle();
  });
});
