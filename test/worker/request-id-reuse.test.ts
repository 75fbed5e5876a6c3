import { describe, expect, it } from 'vitest';
import type { Ticket } from '../../src/shared/types';
import { connect, isType } from './live-socket';
import { api, signedIn } from './support';

const newTicket = async (token: string, title: string) => (await (await api('tickets', { method: 'POST', token, json: { title } })).json()) as Ticket;

describe('a request id sent twice', () => {
  it('publishes each write’s own changes only, never an earlier request’s again', async () => {
    const { token } = await signedIn('staff');
    const { token: watcherToken } = await signedIn('staff');
    const [first, second] = [await newTicket(token, 'First'), await newTicket(token, 'Second')];
    const watcher = await connect(watcherToken);
    await watcher.next(isType('hello'));
    const headers = { 'x-request-id': 'chosen-by-the-caller' };

    expect((await api(`tickets/${first.id}`, { method: 'PATCH', token, headers, json: { title: 'First, edited' } })).status).toBe(200);
    await watcher.next(isType('changed', (m) => m.id === first.id));
    expect((await api(`tickets/${second.id}`, { method: 'PATCH', token, headers, json: { title: 'Second, edited' } })).status).toBe(200);
    await watcher.next(isType('changed', (m) => m.id === second.id));
    // A write of its own id after them: once its event is here, any replay would be too.
    expect((await api(`tickets/${second.id}`, { method: 'PATCH', token, json: { title: 'Second, again' } })).status).toBe(200);
    await watcher.next(isType('changed', (m) => m.id === second.id));
    expect(watcher.messages.filter(isType('changed', (m) => m.id === first.id))).toEqual([]);
    watcher.ws.close();
  });
});
