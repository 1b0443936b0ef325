// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppShell } from '@/features/shell/AppShell';
import { UpdatePrompt } from '@/features/shell/UpdatePrompt';
import { dismiss, notifications } from '@/components/notifications/store';
import { VERIFICATION_SENT } from '@/api/user';
import type { Banner } from '@/api/types';
import { makeInfo, makeUser } from './fixtures';
import { fetchReplies, renderInRouter, type Seed } from './render';
import { connectivity } from '@/offline/runtime';

const noUpdate = { available: false, onReload: () => {}, onLater: () => {} };

function renderShell(seed: Seed & { path?: string }) {
  return renderInRouter(
    <AppShell update={noUpdate}>
      <p>Page content</p>
    </AppShell>,
    seed,
  );
}

afterEach(() => {
  cleanup();
  for (const notification of notifications.get()) dismiss(notification.id);
  vi.unstubAllGlobals();
});

describe('banners', () => {
  it('invites an anonymous visitor to log in or create an account', async () => {
    renderShell({ info: makeInfo({ signup: true }), user: null, path: '/element/abc' });
    const banner = within(await screen.findByRole('region', { name: 'Not logged in' }));
    const login = banner.getByRole('link', { name: 'Log in' });
    expect(login.getAttribute('href')).toBe('/user/login?next=%2Felement%2Fabc');
    expect(banner.getByRole('link', { name: 'create an account' }).getAttribute('href')).toBe(
      '/user/register?next=%2Felement%2Fabc',
    );
    expect(screen.queryByRole('region', { name: 'Unverified email' })).toBeNull();
  });

  it('does not offer account creation when signup is off', async () => {
    renderShell({ info: makeInfo({ signup: false }), user: null });
    const banner = within(await screen.findByRole('region', { name: 'Not logged in' }));
    expect(banner.getByRole('link', { name: 'Log in' })).toBeTruthy();
    expect(banner.queryByRole('link', { name: 'create an account' })).toBeNull();
  });

  it('shows no account banner to a verified user with a password', async () => {
    renderShell({ info: makeInfo({ signup: true }), user: makeUser() });
    await screen.findByText('Page content');
    expect(screen.queryByRole('region', { name: 'Not logged in' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Unverified email' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'No password' })).toBeNull();
  });

  it('keeps an unverified user informed, in the sticky header', async () => {
    renderShell({ info: makeInfo(), user: makeUser({ verified_email: false }) });
    const banner = await screen.findByRole('region', { name: 'Unverified email' });
    expect(banner.textContent).toContain('A verification email has been sent to your address');
    expect(banner.closest('header')?.className).toContain('sticky');
  });

  it('does not call an admin without a verified e-mail unverified', async () => {
    renderShell({ info: makeInfo(), user: makeUser({ verified_email: false, is_admin: true }) });
    await screen.findByText('Page content');
    expect(screen.queryByRole('region', { name: 'Unverified email' })).toBeNull();
  });

  it('resends the verification e-mail from the banner and confirms it', async () => {
    const replies = fetchReplies({ status: 204 });
    vi.stubGlobal('fetch', replies.fetch);
    renderShell({ info: makeInfo(), user: makeUser({ verified_email: false }) });
    const banner = within(await screen.findByRole('region', { name: 'Unverified email' }));
    await userEvent.click(banner.getByRole('button', { name: 'Resend the verification email' }));
    const confirmation = await screen.findByText(VERIFICATION_SENT);
    expect(confirmation.closest('[role="status"]')?.getAttribute('data-type')).toBe('success');
    expect(replies.calls).toEqual([{ url: '/api/v1/user/verify-email/send/', method: 'POST' }]);
  });

  it('shows the error when resending fails', async () => {
    const replies = fetchReplies({
      status: 429,
      body: {
        type: 'client_error',
        errors: [{ code: 'throttled', detail: 'Request was throttled.', attr: null }],
      },
    });
    vi.stubGlobal('fetch', replies.fetch);
    renderShell({ info: makeInfo(), user: makeUser({ verified_email: false }) });
    const banner = within(await screen.findByRole('region', { name: 'Unverified email' }));
    await userEvent.click(banner.getByRole('button', { name: 'Resend the verification email' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Request was throttled.');
  });

  it('warns a user without a usable password, with a link to set one', async () => {
    renderShell({ info: makeInfo(), user: makeUser({ has_usable_password: false }) });
    const banner = within(await screen.findByRole('region', { name: 'No password' }));
    expect(banner.getByRole('link', { name: 'Set a password' }).getAttribute('href')).toBe(
      '/user/password_reset',
    );
  });

  it.each<Banner['style']>(['info', 'warning', 'error', 'success'])(
    'shows the server banner styled %s, with its markdown',
    async (style) => {
      renderShell({
        info: makeInfo(
          {},
          {
            banner: {
              style,
              message: 'Maintenance on **Friday**, see [status](https://status.example.org)',
            },
          },
        ),
        user: makeUser(),
      });
      const banner = await screen.findByRole('region', { name: 'Site announcement' });
      expect(banner.getAttribute('data-tone')).toBe(style);
      expect((await within(banner).findByText('Friday')).tagName).toBe('STRONG');
      expect(within(banner).getByRole('link', { name: 'status' }).getAttribute('href')).toBe(
        'https://status.example.org',
      );
    },
  );

  it('shows no server banner when the server has none', async () => {
    renderShell({ info: makeInfo({}, { banner: null }), user: makeUser() });
    await screen.findByText('Page content');
    expect(screen.queryByRole('region', { name: 'Site announcement' })).toBeNull();
  });
});

describe('footer', () => {
  it('shows the version, the edition and the support and documentation links', async () => {
    renderShell({ info: makeInfo({ enterprise: false }, { version: '1.9.0' }), user: null });
    const footer = within(await screen.findByRole('contentinfo'));
    expect(footer.getByText('Version 1.9.0')).toBeTruthy();
    expect(footer.getByText('Community edition')).toBeTruthy();
    expect(footer.getByRole('link', { name: 'Support' }).getAttribute('href')).toMatch(/^https:/);
    expect(footer.getByRole('link', { name: 'Documentation' }).getAttribute('href')).toMatch(
      /^https:/,
    );
  });

  it('names the enterprise edition', async () => {
    renderShell({ info: makeInfo({ enterprise: true }), user: null });
    const footer = within(await screen.findByRole('contentinfo'));
    expect(footer.getByText('Enterprise edition')).toBeTruthy();
    expect(footer.queryByText('Community edition')).toBeNull();
  });
});

describe('offline', () => {
  const setOnline = (online: boolean) => connectivity.store.set({ online, checkedAt: Date.now() });
  beforeEach(() => setOnline(true));
  afterEach(() => setOnline(true));

  function goOffline(value: boolean) {
    act(() => setOnline(!value));
  }

  it('says so from the first render when the page loads offline', async () => {
    setOnline(false);
    renderShell({ info: makeInfo(), user: makeUser() });
    const notice = await screen.findByRole('region', { name: 'Offline' });
    expect(notice.textContent).toContain('You are offline');
    expect(notice.textContent).toContain('sent to the server when the network returns');
    const bar = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(bar.getByText('Offline')).toBeTruthy();
  });

  it('follows the connection going and coming back', async () => {
    renderShell({ info: makeInfo(), user: makeUser() });
    const bar = within(await screen.findByRole('navigation', { name: 'Main' }));
    expect(bar.getByText('Online')).toBeTruthy();
    expect(screen.queryByText('You are offline')).toBeNull();
    goOffline(true);
    expect(screen.getByText('You are offline')).toBeTruthy();
    expect(bar.getByText('Offline')).toBeTruthy();
    goOffline(false);
    expect(screen.queryByText('You are offline')).toBeNull();
    expect(bar.getByText('Online')).toBeTruthy();
  });

  it("keeps the banner's resend for the network, saying so, and sends nothing", async () => {
    const replies = fetchReplies({ status: 201, body: {} });
    vi.stubGlobal('fetch', replies.fetch);
    renderShell({ info: makeInfo(), user: makeUser({ verified_email: false }) });
    const banner = within(await screen.findByRole('region', { name: 'Unverified email' }));
    goOffline(true);
    const resend = banner.getByRole('button', { name: 'Resend the verification email' });
    expect(resend.getAttribute('aria-disabled')).toBe('true');
    expect(resend.getAttribute('title')).toBe('Needs the network');
    await userEvent.click(resend);
    expect(replies.calls).toEqual([]);
  });
});

describe('update prompt', () => {
  it('stays hidden while no update is waiting', () => {
    render(<UpdatePrompt available={false} onReload={() => {}} onLater={() => {}} />);
    expect(screen.queryByText('A new version of Folia is available.')).toBeNull();
  });

  it('offers to reload or wait when an update is waiting', async () => {
    const onReload = vi.fn();
    const onLater = vi.fn();
    render(<UpdatePrompt available onReload={onReload} onLater={onLater} />);
    const prompt = within(screen.getByRole('region', { name: 'Update available' }));
    expect(prompt.getByText('A new version of Folia is available.')).toBeTruthy();
    await userEvent.click(prompt.getByRole('button', { name: 'Later' }));
    expect(onLater).toHaveBeenCalledOnce();
    expect(onReload).not.toHaveBeenCalled();
    await userEvent.click(prompt.getByRole('button', { name: 'Reload' }));
    expect(onReload).toHaveBeenCalledOnce();
  });

  it('is part of the shell', async () => {
    renderInRouter(
      <AppShell update={{ available: true, onReload: () => {}, onLater: () => {} }}>
        <p>Page content</p>
      </AppShell>,
      { info: makeInfo(), user: makeUser() },
    );
    expect(await screen.findByText('A new version of Folia is available.')).toBeTruthy();
  });
});
