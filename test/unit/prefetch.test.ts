import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { prefetchRouteData } from '../../src/client/app/preload';
import { dataFor } from '../../src/client/app/routes';
import { signIn, signOut } from '../../src/client/lib/auth-store';
import { prefetchApi, takePrefetched } from '../../src/client/lib/prefetch';

const reply = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

describe('prefetchApi / takePrefetched', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
    signIn({ token: 'tok', firstName: 'A', surname: 'B', email: 'a@b.c', userId: 7, role: 'staff' });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('hands the answer to the first reader only', async () => {
    fetchMock.mockResolvedValue(reply({ open: 3 }));
    prefetchApi('dashboard/summary');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await expect(takePrefetched('dashboard/summary')).resolves.toEqual({ open: 3 });
    expect(takePrefetched('dashboard/summary')).toBeUndefined();
    expect(takePrefetched('users')).toBeUndefined();
  });

  it('drops an answer that is more than 10 s old', () => {
    vi.useFakeTimers();
    fetchMock.mockResolvedValue(reply({}));
    prefetchApi('dashboard/summary');
    vi.advanceTimersByTime(10_001);
    expect(takePrefetched('dashboard/summary')).toBeUndefined();
  });

  it('passes a failure on to the reader, and nowhere else', async () => {
    fetchMock.mockResolvedValue(reply({ message: 'Nope' }, 500));
    prefetchApi('dashboard/summary');
    await new Promise((resolve) => setTimeout(resolve, 0));
    await expect(takePrefetched('dashboard/summary')).rejects.toThrow('Nope');
  });

  it('asks for the dashboard data on the way to the dashboard, only when signed in', () => {
    fetchMock.mockResolvedValue(reply({}));
    expect(dataFor('/dashboard/')).toEqual(['dashboard/summary']);
    expect(dataFor('/users/?id=3')).toEqual([]);
    prefetchRouteData('/users/');
    expect(fetchMock).not.toHaveBeenCalled();
    prefetchRouteData('/dashboard');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/v1/dashboard/summary');
    signOut();
    prefetchRouteData('/dashboard/');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    takePrefetched('dashboard/summary');
  });
});
