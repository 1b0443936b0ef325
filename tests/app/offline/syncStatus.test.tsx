// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { Navbar } from '@/features/shell/Navbar';
import { localDb } from '@/offline/db';
import { createElement } from '@/offline/elementEdits';
import { makeInfo, makeUser } from '../shell/fixtures';
import { renderInRouter } from '../shell/render';

afterEach(async () => {
  cleanup();
  await localDb.outbox.clear();
  await localDb.elements.clear();
  await localDb.syncState.clear();
});

async function indicator() {
  const bar = within(await screen.findByRole('navigation', { name: 'Main' }));
  return bar.getByRole('button', { name: /^Pending changes:/ });
}

describe('the navbar sync status', () => {
  it('counts the edits waiting for the server and says when it last synced', async () => {
    renderInRouter(<Navbar />, { info: makeInfo(), user: makeUser() });
    const status = await indicator();
    expect(status.getAttribute('title')).toBe('Not synced from this browser yet');
    expect(within(status).queryByText(/pending/)).toBeNull();

    const corpus = crypto.randomUUID();
    await createElement(localDb, { corpus, parent: null, type: 'folder', name: 'Box 1' });
    await createElement(localDb, { corpus, parent: null, type: 'folder', name: 'Box 2' });
    await waitFor(() => expect(within(status).getByText('2 pending')).toBeTruthy());
    expect(status.getAttribute('aria-label')).toMatch(
      /^Pending changes: (Online|Offline), 2 pending$/,
    );

    await localDb.outbox.clear();
    await localDb.syncState.put({ key: 'lastSync', at: Date.now() - 120_000 });
    await waitFor(() => expect(within(status).queryByText(/pending/)).toBeNull());
    await waitFor(() => expect(status.getAttribute('title')).toBe('Last synced 2 minutes ago'));
  });
});
