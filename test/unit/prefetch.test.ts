import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { createElement } from 'react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preloadRoute } from '../../src/client/app/preload-route';
import { swrConfig } from '../../src/client/app/swr-config';
import { dashboardSummaryPath, useDashboard } from '../../src/client/lib/dashboard-summary';
import { signIn, signOut } from '../../src/client/lib/auth-store';
import { preloadApi } from '../../src/client/lib/use-api';

// The route table's preloading against the page's real SWR hook: what the preload starts must be
// the very request the hook would make, taken by the hook instead of a second one.
const SUMMARY_URL = '/api/v1/dashboard/summary';
const fetchMock = vi.fn<typeof fetch>();
const reply = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
// The summary is asked for with the person's today in its query.
const isSummary = (url: unknown) => String(url).split('?')[0] === SUMMARY_URL;
const summaryCalls = () => fetchMock.mock.calls.filter(([url]) => isSummary(url)).length;

function Dashboard() {
  const { data, error } = useDashboard();
  if (error) return createElement('p', null, `error: ${error.message}`);
  return createElement('p', null, data ? `open: ${(data as unknown as { open: number }).open}` : 'loading');
}
const app = (shown: boolean) => createElement(SWRConfig, { value: swrConfig }, shown ? createElement(Dashboard) : null);
const showDashboard = () => render(app(true));

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  signIn({ token: 'tok', firstName: 'A', surname: 'B', email: 'a@b.c', userId: 7, role: 'staff' });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('preloadRoute', () => {
  it("starts the dashboard's data, and the dashboard's hook takes that request instead of sending its own", async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementation((url) => (isSummary(url) ? new Promise<Response>((resolve) => (answer = resolve)) : Promise.resolve(reply({}))));
    preloadRoute('/dashboard/', { data: true });
    expect(summaryCalls()).toBe(1);

    showDashboard();
    expect(screen.getByText('loading')).toBeInTheDocument();
    await act(async () => answer(reply({ open: 3 })));
    await screen.findByText('open: 3');
    expect(summaryCalls()).toBe(1);
  });

  it('asks for no data without `data`, or when nobody is signed in', () => {
    fetchMock.mockResolvedValue(reply({}));
    preloadRoute('/dashboard');
    expect(summaryCalls()).toBe(0);
    signOut();
    preloadRoute('/dashboard', { data: true });
    expect(summaryCalls()).toBe(0);
  });

  it('asks for nothing for a page that names no first reads', () => {
    fetchMock.mockResolvedValue(reply({}));
    preloadRoute('/users/?id=3', { data: true });
    expect(fetchMock.mock.calls.filter(([url]) => String(url).startsWith('/api/'))).toEqual([]);
  });
});

describe('preloadApi', () => {
  it('passes a failure on to the hook that takes it, and nowhere else', async () => {
    fetchMock.mockResolvedValue(reply({ message: 'Nope' }, 500));
    preloadApi(dashboardSummaryPath());
    await new Promise((resolve) => setTimeout(resolve, 0));
    showDashboard();
    await screen.findByText('error: Nope');
    expect(summaryCalls()).toBe(1);
  });

  it('drops a request no page took within 10 s: the page then asks again', async () => {
    vi.useFakeTimers();
    fetchMock.mockResolvedValueOnce(reply({ open: 1 })).mockResolvedValueOnce(reply({ open: 2 }));
    preloadApi(dashboardSummaryPath());
    await vi.advanceTimersByTimeAsync(10_001);
    vi.useRealTimers();
    showDashboard();
    await screen.findByText('open: 2');
    expect(summaryCalls()).toBe(2);
  });

  it('replaces a request nobody took when asked again', async () => {
    fetchMock.mockResolvedValueOnce(reply({ message: 'Expired' }, 401)).mockResolvedValueOnce(reply({ open: 5 }));
    preloadApi(dashboardSummaryPath());
    preloadApi(dashboardSummaryPath());
    showDashboard();
    await screen.findByText('open: 5');
    expect(summaryCalls()).toBe(2);
  });
});

describe('useApi keeps nothing (docs/architecture.md#reading-data-in-the-client)', () => {
  it('shows a page opened again nothing of its last visit, and asks the server again', async () => {
    fetchMock.mockResolvedValueOnce(reply({ open: 1 })).mockResolvedValueOnce(reply({ open: 2 }));
    // One app (one SWR cache) throughout: the page goes and comes back.
    const view = showDashboard();
    await screen.findByText('open: 1');
    view.rerender(app(false));

    view.rerender(app(true));
    expect(screen.getByText('loading')).toBeInTheDocument();
    await screen.findByText('open: 2');
    expect(summaryCalls()).toBe(2);
  });

  it('drops an answer that arrived after its page was left', async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve))).mockResolvedValueOnce(reply({ open: 2 }));
    const view = showDashboard();
    await waitFor(() => expect(summaryCalls()).toBe(1));
    view.rerender(app(false));
    await act(async () => answer(reply({ open: 1 })));
    await new Promise((resolve) => setTimeout(resolve, 0));

    view.rerender(app(true));
    expect(screen.getByText('loading')).toBeInTheDocument();
    await screen.findByText('open: 2');
  });
});
