// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSearch } from '@tanstack/react-router';
import { userKeys } from '@/api/user';
import { LoginPage } from '@/features/account/components/LoginPage';
import {
  SERVER_INFO,
  apiError,
  clearNotifications,
  json,
  makeUser,
  mockApi,
  renderPage,
} from './harness';

function LoginRoute() {
  const { next } = useSearch({ strict: false }) as { next?: string };
  return <LoginPage next={next} />;
}

function open(url = '/user/login', info = SERVER_INFO) {
  return renderPage({ path: '/user/login', url, page: LoginRoute, user: null, info });
}

afterEach(() => {
  cleanup();
  clearNotifications();
  vi.unstubAllGlobals();
});

async function fill(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(await screen.findByLabelText('E-mail'), email);
  if (password) await user.type(screen.getByLabelText('Password'), password);
  return user;
}

describe('login page', () => {
  it('keeps the submit button disabled until both fields are filled', async () => {
    mockApi({});
    open();
    const user = userEvent.setup();
    const button = await screen.findByRole('button', { name: 'Log in' });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.org');
    expect((button as HTMLButtonElement).disabled).toBe(true);
    await user.type(screen.getByLabelText('Password'), 'secret');
    expect((button as HTMLButtonElement).disabled).toBe(false);
    await user.clear(screen.getByLabelText('E-mail'));
    expect((button as HTMLButtonElement).disabled).toBe(true);
  });

  it('links to the password reset page', async () => {
    mockApi({});
    open();
    const link = await screen.findByRole('link', { name: 'Forgot your password' });
    expect(link.getAttribute('href')).toBe('/user/password_reset');
  });

  it('shows the API message above the form when login fails', async () => {
    const api = mockApi({
      'POST /user/login/': () =>
        apiError(400, [
          { attr: 'non_field_errors', detail: 'Unable to log in with provided credentials.' },
        ]),
    });
    open();
    const user = await fill('ada@example.org', 'wrong');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    const form = screen.getByRole('form', { name: 'Log in' });
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe('Unable to log in with provided credentials.');
    const email = screen.getByLabelText('E-mail');
    expect(alert.compareDocumentPosition(email) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(api.callsTo('POST /user/login/')[0]?.body).toEqual({
      email: 'ada@example.org',
      password: 'wrong',
    });
    expect(screen.queryByTestId('elsewhere')).toBeNull();
  });

  it('logs in, sets the current user and goes to a same-site next', async () => {
    const ada = makeUser();
    mockApi({ 'POST /user/login/': () => json(200, ada) });
    const { queryClient } = open('/user/login?next=%2Fprocess%2F%3Fcreated%3Dtrue');
    const user = await fill('ada@example.org', 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect((await screen.findByTestId('elsewhere')).textContent).toBe(
      'Now at /process/?created=true',
    );
    expect(queryClient.getQueryData(userKeys.current)).toEqual(ada);
  });

  it('refuses a next pointing at another host and goes to the project list', async () => {
    mockApi({ 'POST /user/login/': () => json(200, makeUser()) });
    open('/user/login?next=%2F%2Fevil.com%2Fsteal');
    const user = await fill('ada@example.org', 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect((await screen.findByTestId('elsewhere')).textContent).toBe('Now at /browse/');
  });

  it('shows the throttling message from a 429', async () => {
    mockApi({
      'POST /user/login/': () =>
        apiError(429, [
          {
            attr: null,
            code: 'throttled',
            detail: 'Request was throttled. Expected available in 30 seconds.',
          },
        ]),
    });
    open();
    const user = await fill('ada@example.org', 'secret');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('form', { name: 'Log in' })).getByRole('alert').textContent,
      ).toBe('Request was throttled. Expected available in 30 seconds.'),
    );
  });

  it('offers registration only when signup is enabled', async () => {
    mockApi({});
    open('/user/login?next=%2Fprocess%2F');
    const register = await screen.findByRole('link', { name: 'Register' });
    expect(register.getAttribute('href')).toBe('/user/register?next=%2Fprocess%2F');
    cleanup();

    open('/user/login', { ...SERVER_INFO, features: { ...SERVER_INFO.features, signup: false } });
    await screen.findByRole('button', { name: 'Log in' });
    expect(screen.queryByRole('link', { name: 'Register' })).toBeNull();
  });
});
