import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form } from 'react-final-form';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_PAGE_SIZE } from '../../src/shared/constants';
import { MentionTextareaField } from '../../src/client/lib/form/MentionTextareaField';
import { MentionText } from '../../src/client/lib/ui/MentionText';

// A team one person larger than the first page of people: Zed, the last, is found only by asking
// the API with what follows `@`, and named in a text only once the API says who that id is.
const person = (id: number, firstName: string, surname: string, isActive = true) => ({
  id,
  firstName,
  surname,
  email: `p${id}@example.com`,
  isActive,
  role: 'staff',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
});
const FIRST_PAGE = Array.from({ length: MAX_PAGE_SIZE }, (_, i) => person(i + 1, 'Person', String(i + 1).padStart(3, '0')));
const ZED = person(MAX_PAGE_SIZE + 1, 'Zed', 'Beyond');
const GONE = person(MAX_PAGE_SIZE + 2, 'Gone', 'Away', false);

const fetchMock = vi.fn<typeof fetch>();
const asked = () => fetchMock.mock.calls.map(([url]) => String(url).replace(/^.*\/api\/v1\//, ''));

beforeEach(() => {
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace('/api/v1/', '');
    const one = [ZED, GONE].find((p) => path === `users/${p.id}`);
    if (one) return Response.json(one);
    if (path.startsWith('users/')) return Response.json({ message: 'User not found' }, { status: 404 });
    const q = url.searchParams.get('q');
    const items = q ? [...FIRST_PAGE, ZED].filter((p) => `${p.firstName} ${p.surname}`.includes(q)) : FIRST_PAGE;
    return Response.json({ items, total: q ? items.length : MAX_PAGE_SIZE + 2, page: 1, pageSize: MAX_PAGE_SIZE });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

const withProviders = (children: React.ReactNode) => (
  <MantineProvider>
    <SWRConfig value={{ provider: () => new Map() }}>{children}</SWRConfig>
  </MantineProvider>
);

describe('mentions in a team larger than one page', () => {
  it('offers someone past the first page after @, and the box reads their name', async () => {
    render(withProviders(<Form onSubmit={() => undefined} render={() => <MentionTextareaField name="body" label="New comment" />} />));
    const box = screen.getByRole('textbox', { name: /New comment/ });
    await waitFor(() => expect(asked()).toContain(`users?pageSize=${MAX_PAGE_SIZE}`));
    box.focus();
    fireEvent.change(box, { target: { value: 'Thanks @Zed', selectionStart: 11 } });
    const option = await screen.findByRole('option', { name: 'Zed Beyond' }, { timeout: 2000 });
    expect(asked()).toContain(`users?q=Zed&pageSize=${MAX_PAGE_SIZE}`);
    fireEvent.mouseDown(option);
    expect(box).toHaveValue(`Thanks @[Zed Beyond](user:${ZED.id}) `);
    await waitFor(() => expect(screen.getByTestId('mention-preview')).toHaveTextContent('Reads as: Thanks @Zed Beyond'));
  });

  const drawnAsMentions = () => Array.from(screen.getByTestId('text').querySelectorAll('[data-mention]'), (node) => node.textContent);

  it('names an active person it does not hold by asking for them; a deactivated one or an unknown id reads as plain text, never as markup', async () => {
    const text = `@[Zed Beyond](user:${ZED.id}) @[Gone Away](user:${GONE.id}) @[The Boss](user:99999)`;
    render(withProviders(<p data-testid="text"><MentionText text={text} known={[]} /></p>));
    await waitFor(() => expect(drawnAsMentions()).toEqual(['@Zed Beyond']));
    expect(screen.getByTestId('text')).toHaveTextContent(/^@Zed Beyond @Gone Away @The Boss$/);
    expect(asked()).toEqual(expect.arrayContaining([`users/${ZED.id}`, `users/${GONE.id}`, 'users/99999']));
  });

  it('asks for nobody it already holds', async () => {
    const known = [{ value: '7', label: 'Person 007', active: true }, { value: String(GONE.id), label: 'Gone Away', active: false }];
    render(withProviders(<p data-testid="text"><MentionText text={`@[Person 007](user:7) @[Gone Away](user:${GONE.id})`} known={known} /></p>));
    expect(screen.getByTestId('text')).toHaveTextContent(/^@Person 007 @Gone Away$/);
    expect(drawnAsMentions()).toEqual(['@Person 007']);
    expect(asked()).toEqual([]);
  });

  it("shows the person's name now, not the name typed into the token", async () => {
    const known = [{ value: '7', label: 'Chloe Carter-Smith', active: true }];
    render(withProviders(<p data-testid="text"><MentionText text={`Over to @[Chloe Carter](user:7) and @[Someone Else](user:${ZED.id})`} known={known} /></p>));
    await waitFor(() => expect(drawnAsMentions()).toEqual(['@Chloe Carter-Smith', '@Zed Beyond']));
    expect(screen.getByTestId('text')).toHaveTextContent(/^Over to @Chloe Carter-Smith and @Zed Beyond$/);
  });
});
