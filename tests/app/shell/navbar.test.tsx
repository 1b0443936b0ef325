// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Navbar } from '@/features/shell/Navbar';
import { makeInfo, makeUser } from './fixtures';
import { renderInRouter } from './render';

afterEach(cleanup);

async function nav() {
  return within(await screen.findByRole('navigation', { name: 'Main' }));
}

async function openUserMenu(name = 'Ada Lovelace') {
  await userEvent.click(await screen.findByRole('button', { name }));
  return within(await screen.findByRole('menu'));
}

function href(element: HTMLElement): string | null {
  return element.getAttribute('href');
}

describe('navbar for an anonymous visitor', () => {
  it('shows Projects, Log in with next set to the current page, and Register with signup', async () => {
    renderInRouter(<Navbar />, {
      info: makeInfo({ signup: true }),
      user: null,
      path: '/browse/some-project?page=2',
    });
    const bar = await nav();
    expect(href(bar.getByRole('link', { name: 'Projects' }))).toBe('/browse/');
    const login = bar.getByRole('link', { name: 'Log in' });
    const loginUrl = new URL(href(login)!, 'http://folia.test');
    expect(loginUrl.pathname).toBe('/user/login');
    expect(loginUrl.searchParams.get('next')).toBe('/browse/some-project?page=2');
    expect(new URL(href(bar.getByRole('link', { name: 'Register' }))!, 'http://x').pathname).toBe(
      '/user/register',
    );
    expect(bar.queryByRole('link', { name: 'Process' })).toBeNull();
    expect(bar.queryByRole('button', { name: /Ada/ })).toBeNull();
  });

  it('has no Register button without the signup feature', async () => {
    renderInRouter(<Navbar />, { info: makeInfo({ signup: false }), user: null });
    const bar = await nav();
    expect(bar.getByRole('link', { name: 'Log in' })).toBeTruthy();
    expect(bar.queryByRole('link', { name: 'Register' })).toBeNull();
  });

  it('shows Search only with the search feature', async () => {
    renderInRouter(<Navbar />, { info: makeInfo({ search: true }), user: null });
    expect(href((await nav()).getByRole('link', { name: 'Search' }))).toBe('/search');
    cleanup();
    renderInRouter(<Navbar />, { info: makeInfo({ search: false }), user: null });
    expect((await nav()).queryByRole('link', { name: 'Search' })).toBeNull();
  });

  it('shows neither the selection nor the jobs, even with the features on', async () => {
    renderInRouter(<Navbar jobs={{ count: 3 }} />, {
      info: makeInfo({ selection: true }),
      user: null,
    });
    const bar = await nav();
    expect(bar.queryByRole('link', { name: /^Selection (\d+|loading)$/ })).toBeNull();
    expect(bar.queryByRole('button', { name: /Background jobs/ })).toBeNull();
  });
});

describe('navbar for a logged-in user', () => {
  it('shows Process and a user menu with the account entries, without the login buttons', async () => {
    renderInRouter(<Navbar />, {
      info: makeInfo({ signup: true }),
      user: makeUser({ verified_email: false }),
    });
    const bar = await nav();
    expect(href(bar.getByRole('link', { name: 'Process' }))).toBe('/process/');
    expect(bar.queryByRole('link', { name: 'Log in' })).toBeNull();
    expect(bar.queryByRole('link', { name: 'Register' })).toBeNull();

    const menu = await openUserMenu();
    const items = menu.getAllByRole('menuitem').map((item) => item.textContent);
    expect(items).toEqual([
      'Profile',
      'Workers',
      'Worker runs',
      'Models',
      'Keyboard shortcuts',
      'Log out',
    ]);
    expect(href(menu.getByRole('menuitem', { name: 'Profile' }))).toBe('/user/profile');
    expect(href(menu.getByRole('menuitem', { name: 'Workers' }))).toBe('/process/workers/');
    expect(href(menu.getByRole('menuitem', { name: 'Worker runs' }))).toBe('/process/worker-runs');
    expect(href(menu.getByRole('menuitem', { name: 'Models' }))).toBe('/models');
    expect(href(menu.getByRole('menuitem', { name: 'Log out' }))).toBe('/user/logout');
  });

  it('hides the selection counter and the jobs from an unverified user', async () => {
    renderInRouter(<Navbar jobs={{ count: 3 }} selection={{ count: 4, loading: false }} />, {
      info: makeInfo({ selection: true }),
      user: makeUser({ verified_email: false }),
    });
    const bar = await nav();
    expect(bar.queryByRole('link', { name: /^Selection (\d+|loading)$/ })).toBeNull();
    expect(bar.queryByRole('button', { name: /Background jobs/ })).toBeNull();
  });
});

describe('navbar for a verified user', () => {
  it('shows the selection counter with the selection feature, and a loader while it loads', async () => {
    renderInRouter(<Navbar selection={{ count: 0, loading: true }} />, {
      info: makeInfo({ selection: true }),
      user: makeUser(),
    });
    const loading = (await nav()).getByRole('link', { name: 'Selection loading' });
    expect(href(loading)).toBe('/elements/selected');
    expect(loading.textContent).not.toContain('0');
  });

  it('shows the selection count once loaded', async () => {
    renderInRouter(<Navbar selection={{ count: 7, loading: false }} />, {
      info: makeInfo({ selection: true }),
      user: makeUser(),
    });
    const counter = (await nav()).getByRole('link', { name: 'Selection 7' });
    expect(counter.textContent).toContain('7');
  });

  it('has no selection counter without the selection feature', async () => {
    renderInRouter(<Navbar selection={{ count: 7, loading: false }} />, {
      info: makeInfo({ selection: false }),
      user: makeUser(),
    });
    expect((await nav()).queryByRole('link', { name: /^Selection (\d+|loading)$/ })).toBeNull();
  });

  it('shows the background jobs count only when there are jobs', async () => {
    renderInRouter(<Navbar jobs={{ count: 2 }} />, { info: makeInfo(), user: makeUser() });
    const jobs = (await nav()).getByRole('button', { name: 'Background jobs: 2' });
    expect(jobs.textContent).toContain('2');
    cleanup();
    renderInRouter(<Navbar />, { info: makeInfo(), user: makeUser() });
    expect((await nav()).queryByRole('button', { name: /Background jobs/ })).toBeNull();
  });
});

describe('navbar entries gated by edition and role', () => {
  it('adds Budgets and Secrets with the enterprise feature', async () => {
    renderInRouter(<Navbar />, { info: makeInfo({ enterprise: true }), user: makeUser() });
    const menu = await openUserMenu();
    expect(href(menu.getByRole('menuitem', { name: 'Budgets' }))).toBe('/budget/');
    expect(href(menu.getByRole('menuitem', { name: 'Secrets' }))).toBe('/secret/');
    expect(menu.queryByRole('menuitem', { name: 'Admin' })).toBeNull();
  });

  it('adds Admin, the link to the administration page, for site admins only', async () => {
    renderInRouter(<Navbar />, { info: makeInfo(), user: makeUser({ is_admin: true }) });
    const menu = await openUserMenu();
    expect(href(menu.getByRole('menuitem', { name: 'Admin' }))).toBe('/admin/');
    expect(menu.queryByRole('menuitem', { name: 'Budgets' })).toBeNull();
    expect(menu.queryByRole('menuitem', { name: 'Secrets' })).toBeNull();
  });
});
