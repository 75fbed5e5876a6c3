import { act, cleanup, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { swrConfig } from '../../src/client/app/swr-config';
import { signIn } from '../../src/client/lib/auth-store';
import { useApi } from '../../src/client/lib/use-api';

// useApi reading a box as it is typed (the palette's search), against a fetch whose answers the
// test releases by hand, in any order.
const fetchMock = vi.fn<typeof fetch>();
const pending = new Map<string, { answer: (body: unknown) => void; signal: AbortSignal | undefined }>();
const qOf = (url: unknown) => new URL(String(url), 'https://app.example').searchParams.get('q') ?? '';

function Results({ q }: { q: string }) {
  const { data } = useApi('GET /search', q ? { query: { q, limit: 10 }, asYouType: true } : null);
  return createElement('p', null, data ? data.items.map((item) => item.title).join(', ') || 'none' : 'waiting');
}
const app = (q: string) => createElement(SWRConfig, { value: swrConfig }, createElement(Results, { q }));

beforeEach(() => {
  signIn({ token: 'tok', firstName: 'A', surname: 'B', email: 'a@b.c', userId: 7, role: 'staff' });
  fetchMock.mockImplementation(
    (url, init) =>
      new Promise<Response>((resolve, reject) => {
        const q = qOf(url);
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        pending.set(q, { answer: (body) => resolve(new Response(JSON.stringify(body), { status: 200 })), signal: init?.signal ?? undefined });
      }),
  );
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  pending.clear();
});

const hit = (title: string) => ({ items: [{ type: 'ticket', id: 1, title, subtitle: '' }] });

describe('useApi as you type', () => {
  it('aborts the older request, and its late answer never replaces the newer one', async () => {
    const view = render(app('pri'));
    await act(async () => undefined);
    view.rerender(app('printer'));
    await act(async () => undefined);
    expect(pending.get('pri')?.signal?.aborted).toBe(true);
    expect(pending.get('printer')?.signal?.aborted).toBe(false);

    await act(async () => pending.get('printer')?.answer(hit('Printer jam')));
    await screen.findByText('Printer jam');
    await act(async () => pending.get('pri')?.answer(hit('Pricing question')));
    expect(screen.getByText('Printer jam')).toBeInTheDocument();
  });

  it('keeps the last answer on screen while the next is on its way', async () => {
    const view = render(app('print'));
    await act(async () => undefined);
    await act(async () => pending.get('print')?.answer(hit('Printer jam')));
    await screen.findByText('Printer jam');
    view.rerender(app('printer'));
    await act(async () => undefined);
    expect(screen.getByText('Printer jam')).toBeInTheDocument();
  });
});
