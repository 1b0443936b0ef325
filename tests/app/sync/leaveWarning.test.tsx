// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { AppShell } from '@/features/shell/AppShell';
import { localDb } from '@/offline/db';
import { createElement } from '@/offline/elementEdits';
import { hasUnsyncedEdits, warnBeforeLeaving, warnIfUnsynced } from '@/offline/leaveWarning';
import { EMPTY_STATUS, type OutboxStatus } from '@/offline/outboxStatus';
import { renderInRouter } from '../shell/render';
import { corpus, isolateSyncTests, stubApi, user } from './harness';
import { makeInfo } from '../support/harness';

isolateSyncTests();

/** A tab being closed: whether the page asked the browser to confirm. */
function closeTab(): { asked: boolean } {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return { asked: event.defaultPrevented };
}

const status = (overrides: Partial<OutboxStatus>): OutboxStatus => ({
  ...EMPTY_STATUS,
  ...overrides,
});

describe('leaving with edits not on the server', () => {
  it('asks only when an edit waits, was refused or conflicts', () => {
    expect(hasUnsyncedEdits(EMPTY_STATUS)).toBe(false);
    expect(hasUnsyncedEdits(status({ lastSync: Date.now() }))).toBe(false);
    expect(hasUnsyncedEdits(status({ pending: 1 }))).toBe(true);
    expect(hasUnsyncedEdits(status({ failed: 1 }))).toBe(true);
    expect(hasUnsyncedEdits(status({ conflicts: 2 }))).toBe(true);

    const quiet = new Event('beforeunload', { cancelable: true }) as BeforeUnloadEvent;
    expect(warnIfUnsynced(quiet, EMPTY_STATUS)).toBe(false);
    expect(quiet.defaultPrevented).toBe(false);
    const asked = new Event('beforeunload', { cancelable: true }) as BeforeUnloadEvent;
    expect(warnIfUnsynced(asked, status({ failed: 1 }))).toBe(true);
    expect(asked.defaultPrevented).toBe(true);
  });

  it('follows the outbox, and stops when told', async () => {
    const stop = warnBeforeLeaving(localDb);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closeTab().asked).toBe(false);

    await createElement(localDb, {
      corpus: corpus.id,
      parent: null,
      type: 'folder',
      name: 'Box 1',
    });
    await waitFor(() => expect(closeTab().asked).toBe(true));

    const [entry] = await localDb.outbox.toArray();
    await localDb.outbox.update(entry!.seq!, { status: 'conflict' });
    await waitFor(() => expect(closeTab().asked).toBe(true));

    await localDb.outbox.clear();
    await waitFor(() => expect(closeTab().asked).toBe(false));

    await createElement(localDb, {
      corpus: corpus.id,
      parent: null,
      type: 'folder',
      name: 'Box 2',
    });
    stop();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closeTab().asked).toBe(false);
  });

  it('is set up by the app shell, and taken down with it', async () => {
    stubApi();
    const { unmount } = renderInRouter(
      <AppShell update={{ available: false, onReload: () => {}, onLater: () => {} }}>
        <p>Page content</p>
      </AppShell>,
      { info: makeInfo(), user },
    );
    await createElement(localDb, {
      corpus: corpus.id,
      parent: null,
      type: 'folder',
      name: 'Box 1',
    });
    await waitFor(() => expect(closeTab().asked).toBe(true));
    unmount();
    expect(closeTab().asked).toBe(false);
  });
});
