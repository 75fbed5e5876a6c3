import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginPage } from '../../src/client/features/auth/LoginPage';
import { ProfileTab } from '../../src/client/features/settings/ProfileTab';
import { SecurityTab } from '../../src/client/features/settings/SecurityTab';
import { signIn, signOut } from '../../src/client/lib/auth-store';

// The forms as people meet them: Mantine inputs, react-final-form and the shared yup schemas,
// with the messages of docs/architecture.md#forms-and-messages under the fields they belong to. No request may leave a form that
// fails validation.
const fetchMock = vi.fn<typeof fetch>();

const renderPage = (page: ReactNode) =>
  render(
    <MantineProvider>
      <MemoryRouter>{page}</MemoryRouter>
    </MantineProvider>,
  );

/** The error message Mantine shows for the input labelled `label`. */
const errorFor = (label: string | RegExp) => {
  const input = screen.getByLabelText(label);
  const id = input.getAttribute('aria-describedby')?.split(' ').find((part) => part.endsWith('-error'));
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
};

/**
 * The calls that reached `path`. The sign-in page and the Security tab also ask for what they
 * show beside the form (an Access identity, passkeys); only the form's own call counts here.
 */
const callsTo = (path: string) => fetchMock.mock.calls.filter(([url]) => String(url instanceof Request ? url.url : url).includes(path));

const submit = (name: string) => fireEvent.click(screen.getByRole('button', { name }));
const type = (label: string | RegExp, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => vi.stubGlobal('fetch', fetchMock));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
  signOut();
});

describe('login form', () => {
  it('names each missing field and sends nothing', async () => {
    renderPage(<LoginPage />);
    submit('Login');
    await waitFor(() => expect(errorFor('Email')).toBe('Email is required'));
    expect(errorFor('Password')).toBe('Password is required');
    expect(callsTo('auth/login')).toEqual([]);
  });

  it('clears a message once the field is filled', async () => {
    renderPage(<LoginPage />);
    submit('Login');
    await waitFor(() => expect(errorFor('Email')).toBe('Email is required'));
    type('Email', 'someone@example.com');
    await waitFor(() => expect(errorFor('Email')).toBeNull());
    expect(errorFor('Password')).toBe('Password is required');
  });
});

describe('settings forms', () => {
  beforeEach(() => signIn({ token: 'tok', firstName: 'Ada', surname: 'Lovelace', email: 'ada@example.com', userId: 7, role: 'staff' }));

  it('profile: empty names and a bad email each read Required', async () => {
    renderPage(<ProfileTab />);
    type('First Name', '');
    type('Surname', '');
    type('Email Address', 'not-an-email');
    submit('Update Profile');
    await waitFor(() => expect(errorFor('First Name')).toBe('Required'));
    expect(errorFor('Surname')).toBe('Required');
    expect(errorFor('Email Address')).toBe('Required');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('password: both fields Required, then Passwords do not match on the confirmation', async () => {
    renderPage(<SecurityTab />);
    submit('Update Password');
    await waitFor(() => expect(errorFor('New Password')).toBe('Required'));
    expect(errorFor('Confirm Password')).toBe('Required');

    type('New Password', 'a long new passphrase');
    type('Confirm Password', 'a different passphrase');
    submit('Update Password');
    await waitFor(() => expect(errorFor('Confirm Password')).toBe('Passwords do not match'));
    expect(errorFor('New Password')).toBeNull();
    expect(callsTo('change-password')).toEqual([]);
  });
});
