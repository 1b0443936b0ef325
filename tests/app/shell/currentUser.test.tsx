// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { focusManager, type QueryClient } from '@tanstack/react-query';
import { userKeys } from '@/api/user';
import type { User } from '@/api/types';
import { signedIn } from '@/features/account/api';
import { AppShell } from '@/features/shell/AppShell';
import { queryPersister } from '@/offline/queryPersister';
import { apiError, isolateEachTest, json, stubFetch, type Call } from '../support/harness';
import { makeInfo, makeUser } from './fixtures';
import { renderInRouter, seededQueryClient } from './render';

const noUpdate = { available: false, onReload: () => {}, onLater: () => {} };
const info = makeInfo({ signup: true });
const ada = makeUser();
const HINT = 'folia.signed_in';

isolateEachTest();

function setHint(value: string | null): void {
  document.cookie =
    value === null ? `${HINT}=; path=/; max-age=0` : `${HINT}=${value}; path=/; max-age=3600`;
}

beforeEach(() => setHint(null));
afterEach(() => {
  setHint(null);
  focusManager.setFocused(undefined);
});

/** The shell over a page, as a reload opens it: server info known, the user as `user` says. */
function renderShell(user?: User | null) {
  return renderInRouter(
    <AppShell update={noUpdate}>
      <p>Page content</p>
    </AppShell>,
    { info, ...(user === undefined ? {} : { user }) },
  );
}

const nav = () => within(screen.getByRole('navigation', { name: 'Main' }));

async function expectLoggedIn(name = 'Ada Lovelace') {
  await waitFor(() => expect(nav().getByRole('button', { name: new RegExp(name) })).toBeTruthy());
  expect(nav().queryByRole('link', { name: 'Log in' })).toBeNull();
  expect(screen.queryByRole('region', { name: 'Not logged in' })).toBeNull();
}

async function expectVisitor() {
  await screen.findByRole('region', { name: 'Not logged in' });
  expect(nav().getByRole('link', { name: 'Log in' })).toBeTruthy();
  expect(nav().queryByRole('button', { name: /Ada Lovelace/ })).toBeNull();
}

const userCalls = (calls: Call[]) =>
  calls.filter((call) => call.method === 'GET' && call.path === '/user/');

/** Asks for the user again, as a page does when its copy is stale, and waits for the answer. */
async function refetchUser(queryClient: QueryClient) {
  await act(async () => {
    await queryClient.invalidateQueries({ queryKey: userKeys.current });
  });
}

/** A persisted copy of the user, as a previous visit left it `ageMs` ago. */
async function persistUser(user: User, ageMs: number) {
  const previous = seededQueryClient();
  previous.setQueryData(userKeys.current, user, { updatedAt: Date.now() - ageMs });
  await queryPersister.persistQuery(previous.getQueryCache().find({ queryKey: userKeys.current })!);
}

describe('a logged-in user whose GET /user/ fails', () => {
  it.each([
    ['the network fails', () => Promise.reject(new TypeError('Failed to fetch'))],
    ['the server errs', async () => apiError(503, [{ attr: null, detail: 'Overloaded.' }])],
    [
      'a proxy refuses with a page of its own',
      async () => new Response('Forbidden by proxy', { status: 403 }),
    ],
  ])('stays logged in when %s', async (_, answer) => {
    const { calls } = stubFetch(answer);
    const { queryClient } = renderShell(ada);
    await expectLoggedIn();
    await refetchUser(queryClient);
    expect(userCalls(calls)).toHaveLength(1);
    await expectLoggedIn();
  });

  it('is logged out by the server answering 401', async () => {
    stubFetch(async () =>
      apiError(401, [
        {
          attr: null,
          code: 'not_authenticated',
          detail: 'Authentication credentials were not provided.',
        },
      ]),
    );
    const { queryClient } = renderShell(ada);
    await expectLoggedIn();
    await refetchUser(queryClient);
    await expectVisitor();
  });

  it('stays logged in after a reload while offline, from the persisted copy', async () => {
    await persistUser(ada, 5 * 60_000);
    const { calls } = stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    renderShell();
    await expectLoggedIn();
    await waitFor(() => expect(userCalls(calls)).toHaveLength(1));
    await expectLoggedIn();
  });

  it('is not logged out by a 401 asked for before the login and answered after it', async () => {
    let answer401: () => void = () => {};
    stubFetch(
      () =>
        new Promise<Response>((resolve) => {
          answer401 = () => resolve(apiError(401, [{ attr: null, detail: 'Not logged in.' }]));
        }),
    );
    const { queryClient } = renderShell(null);
    await expectVisitor();
    void queryClient.invalidateQueries({ queryKey: userKeys.current });
    signedIn(queryClient, ada);
    await expectLoggedIn();
    await act(async () => answer401());
    await expectLoggedIn();
  });
});

describe('account changes made elsewhere', () => {
  const withoutPassword = makeUser({ has_usable_password: false });
  const withPassword = makeUser({ has_usable_password: true });

  it('show at once after a reload, even over a persisted copy a second old', async () => {
    await persistUser(withoutPassword, 1000);
    const { calls } = stubFetch(async () => json(200, withPassword));
    renderShell();
    await expectLoggedIn();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'No password' })).toBeNull());
    expect(userCalls(calls)).toHaveLength(1);
  });

  it('show at once when the user comes back to the tab', async () => {
    const { calls } = stubFetch(async () => json(200, withPassword));
    renderShell(withoutPassword);
    await screen.findByRole('region', { name: 'No password' });
    act(() => focusManager.setFocused(false));
    act(() => focusManager.setFocused(true));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'No password' })).toBeNull());
    expect(userCalls(calls)).toHaveLength(1);
  });
});

describe('an anonymous page load', () => {
  it("asks nothing when the server's cookie says no session exists", async () => {
    setHint('0');
    const { calls } = stubFetch(async () => json(500, {}));
    renderShell();
    await expectVisitor();
    expect(userCalls(calls)).toEqual([]);
  });

  it('asks when the cookie says a session may exist', async () => {
    setHint('1');
    const { calls } = stubFetch(async () => json(200, ada));
    renderShell();
    await expectLoggedIn();
    expect(userCalls(calls)).toHaveLength(1);
  });

  it('asks a server that sets no such cookie, as Arkindex', async () => {
    const { calls } = stubFetch(async () =>
      apiError(403, [{ attr: null, detail: 'Authentication credentials were not provided.' }]),
    );
    renderShell();
    await expectVisitor();
    expect(userCalls(calls)).toHaveLength(1);
  });
});
