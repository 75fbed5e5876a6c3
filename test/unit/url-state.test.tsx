import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { optionalId, useListParams } from '../../src/client/lib/url-state';

const parse = (params: URLSearchParams) => ({
  from: params.get('from') ?? undefined,
  to: params.get('to') ?? undefined,
  actorId: optionalId(params.get('actorId')),
  page: optionalId(params.get('page')),
});

const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={['/audit/?actorId=1&page=3']}>{children}</MemoryRouter>;

describe('useListParams', () => {
  it('keeps both of two changes made before the page renders again', () => {
    const { result } = renderHook(() => [useListParams(parse), useLocation()] as const, { wrapper });
    act(() => {
      const [[, view]] = result.current;
      view.filter({ from: '2026-11-01' });
      view.filter({ to: '2026-11-24' });
    });
    const [[values], location] = result.current;
    expect(values).toEqual({ from: '2026-11-01', to: '2026-11-24', actorId: 1, page: undefined });
    expect(location.pathname).toBe('/audit/');
  });

  it('builds each change on the one before it', () => {
    const { result } = renderHook(() => [useListParams(parse), useLocation()] as const, { wrapper });
    act(() => result.current[0][1].filter({ from: '2026-11-01' }));
    act(() => result.current[0][1].update({ actorId: 2 }));
    expect(result.current[0][0]).toEqual({ from: '2026-11-01', to: undefined, actorId: 2, page: undefined });
  });
});
