// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSearch } from '@tanstack/react-router';
import { userKeys } from '@/api/user';
import { RegisterPage } from '@/features/account/components/RegisterPage';
import { apiError, clearNotifications, json, makeUser, mockApi, renderPage } from './harness';

function RegisterRoute() {
  const { next } = useSearch({ strict: false }) as { next?: string };
  return <RegisterPage next={next} />;
}

function open(url = '/user/register') {
  return renderPage({ path: '/user/register', url, page: RegisterRoute, user: null });
}

afterEach(() => {
  cleanup();
  clearNotifications();
  vi.unstubAllGlobals();
});

async function fillForm(values: {
  name?: string;
  email?: string;
  password?: string;
  confirmation?: string;
}) {
  const user = userEvent.setup();
  await screen.findByRole('form', { name: 'Register' });
  if (values.name) await user.type(screen.getByLabelText('Display name'), values.name);
  if (values.email) await user.type(screen.getByLabelText('E-mail'), values.email);
  if (values.password) await user.type(screen.getByLabelText('Password'), values.password);
  if (values.confirmation) {
    await user.type(screen.getByLabelText('Password confirmation'), values.confirmation);
  }
  await user.click(screen.getByRole('button', { name: 'Register' }));
}

/** The message a screen reader announces with the field: its aria-describedby target. */
function fieldMessage(label: string): string | null {
  const input = screen.getByLabelText(label);
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}

describe('register page', () => {
  it("says Passwords don't match without calling the server", async () => {
    const api = mockApi({});
    open();
    await fillForm({
      name: 'Ada',
      email: 'ada@example.org',
      password: 'correct horse',
      confirmation: 'correct hose',
    });

    expect(await screen.findByText("Passwords don't match")).toBeTruthy();
    expect(fieldMessage('Password confirmation')).toBe("Passwords don't match");
    expect(api.calls).toEqual([]);
  });

  it('requires every field', async () => {
    const api = mockApi({});
    open();
    await fillForm({ email: 'ada@example.org' });
    expect(fieldMessage('Display name')).toBe('This field is required.');
    expect(fieldMessage('E-mail')).toBeNull();
    expect(fieldMessage('Password')).toBe('This field is required.');
    expect(fieldMessage('Password confirmation')).toBe('This field is required.');
    expect(api.calls).toEqual([]);
  });

  it('shows the server errors next to their fields', async () => {
    const api = mockApi({
      'POST /user/new/': () =>
        apiError(400, [
          { attr: 'email', detail: 'A user with this email already exists.', code: 'unique' },
          { attr: 'password', detail: 'This password is too common.', code: 'password_too_common' },
          { attr: 'display_name', detail: 'Ensure this field has no more than 120 characters.' },
        ]),
    });
    open();
    await fillForm({
      name: 'Ada',
      email: 'ada@example.org',
      password: 'password',
      confirmation: 'password',
    });

    await screen.findByText('A user with this email already exists.');
    expect(fieldMessage('E-mail')).toBe('A user with this email already exists.');
    expect(fieldMessage('Password')).toBe('This password is too common.');
    expect(fieldMessage('Display name')).toBe('Ensure this field has no more than 120 characters.');
    expect(api.callsTo('POST /user/new/')[0]?.body).toEqual({
      display_name: 'Ada',
      email: 'ada@example.org',
      password: 'password',
    });
    // Field errors are not repeated above the form.
    const form = screen.getByRole('form', { name: 'Register' });
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it('shows an error with no field above the form', async () => {
    mockApi({
      'POST /user/new/': () =>
        apiError(403, [{ attr: null, detail: 'Registration is disabled on this server.' }]),
    });
    open();
    await fillForm({ name: 'Ada', email: 'ada@example.org', password: 'pw', confirmation: 'pw' });
    const form = screen.getByRole('form', { name: 'Register' });
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Registration is disabled on this server.',
    );
  });

  it('logs the new user in, tells about the verification e-mail and goes on to next', async () => {
    const ada = makeUser({ verified_email: false });
    mockApi({ 'POST /user/new/': () => json(201, ada) });
    const { queryClient } = open('/user/register?next=%2Fcorpus%2Fnew');
    await fillForm({
      name: 'Ada',
      email: 'ada@example.org',
      password: 'a long passphrase',
      confirmation: 'a long passphrase',
    });

    expect((await screen.findByTestId('elsewhere')).textContent).toBe('Now at /corpus/new');
    expect(screen.getByRole('status').textContent).toContain(
      'A verification email has been sent to ada@example.org.',
    );
    expect(queryClient.getQueryData(userKeys.current)).toEqual(ada);
  });
});
