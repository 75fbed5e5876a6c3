import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { SWRConfig } from 'swr';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_PAGE_SIZE } from '../../src/shared/constants';
import { RecordSelect } from '../../src/client/lib/ui/RecordSelect';

// A company list one record longer than the first page a select loads: the last one, "Zeta
// Works", is found only by asking the API with what is typed, or by its id once it is chosen.
const company = (id: number, name: string) => ({ id, name, code: null, email: null, phone: null, address: null, isActive: true, version: 1 });
const FIRST_PAGE = Array.from({ length: MAX_PAGE_SIZE }, (_, i) => company(i + 1, `Company ${String(i + 1).padStart(3, '0')}`));
const BEYOND = company(MAX_PAGE_SIZE + 1, 'Zeta Works');

const fetchMock = vi.fn<typeof fetch>();
const asked = () => fetchMock.mock.calls.map(([url]) => String(url).replace(/^.*\/api\/v1\//, ''));

const answer = (total: number) =>
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace('/api/v1/', '');
    if (path === `companies/${BEYOND.id}`) return Response.json(BEYOND);
    const q = url.searchParams.get('q');
    const items = q ? [...FIRST_PAGE, BEYOND].filter((c) => c.name.includes(q)) : FIRST_PAGE;
    return Response.json({ items, total: q ? items.length : total, page: 1, pageSize: MAX_PAGE_SIZE });
  });

function Picker({ initial = null }: { initial?: number | null }) {
  const [value, setValue] = useState<number | null>(initial);
  return (
    <>
      <RecordSelect label="Company" records="companies" value={value} onChange={setValue} clearable />
      <output>{value ?? 'none'}</output>
    </>
  );
}

const renderPicker = (initial?: number | null) =>
  render(
    <MantineProvider>
      <SWRConfig value={{ provider: () => new Map() }}>
        <Picker initial={initial} />
      </SWRConfig>
    </MantineProvider>,
  );

const field = () => screen.getByRole('combobox', { name: 'Company' });

/** Types into the select as a person does: focused first (Mantine reads a write to an unfocused input as autofill). */
const type = (text: string) => {
  field().focus();
  fireEvent.click(field());
  fireEvent.change(field(), { target: { value: text } });
};

// Under happy-dom the open dropdown still counts as hidden to testing-library; what is in it is what matters.
const option = (name: string) => screen.findByRole('option', { name, hidden: true });

beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('RecordSelect', () => {
  it('finds and chooses a record beyond the first page by what is typed', async () => {
    answer(MAX_PAGE_SIZE + 1);
    renderPicker();
    await waitFor(() => expect(asked()).toEqual([`companies?pageSize=${MAX_PAGE_SIZE}`]));
    type('Zeta');
    fireEvent.click(await option('Zeta Works'));
    expect(screen.getByRole('status')).toHaveTextContent(String(BEYOND.id));
    expect(asked()).toContain(`companies?q=Zeta&pageSize=${MAX_PAGE_SIZE}`);
    await waitFor(() => expect(field()).toHaveValue('Zeta Works'));
  });

  it('shows the label of a chosen record that is not on the first page', async () => {
    answer(MAX_PAGE_SIZE + 1);
    renderPicker(BEYOND.id);
    await waitFor(() => expect(field()).toHaveValue('Zeta Works'));
    expect(asked()).toContain(`companies/${BEYOND.id}`);
  });

  it('asks nothing more when the first page holds every record', async () => {
    answer(MAX_PAGE_SIZE);
    renderPicker(7);
    await waitFor(() => expect(field()).toHaveValue('Company 007'));
    type('Company 12');
    fireEvent.click(await option('Company 120'));
    expect(screen.getByRole('status')).toHaveTextContent('120');
    expect(asked()).toEqual([`companies?pageSize=${MAX_PAGE_SIZE}`]);
  });
});
