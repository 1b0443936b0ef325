// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  defaultScheduler,
  notifyManager,
  QueryClient,
  QueryClientProvider,
} from '@tanstack/react-query';
import type { ElementListItem, Transcription } from '@/api/types';
import { LineTranscriber } from '@/features/transcriptions/LineTranscriber';
import { localDb } from '@/offline/db';
import { storedLineTranscriptionsQuery, storedZonesQuery } from '@/offline/queries';
import { json, resetClientState, stubFetch } from '../support/harness';

const PAGE = { id: 'page', corpusId: 'corpus' };
const LINES = [
  { id: 'line-a', name: '1' },
  { id: 'line-b', name: '2' },
];
const FILE_IMPORT = { id: 'run', summary: 'Worker File import @ 1' };

const reading = (id: string, text: string, extra: Partial<Transcription> = {}): Transcription => ({
  id,
  text,
  confidence: null,
  orientation: 'horizontal-lr',
  worker_run: FILE_IMPORT,
  entity_count: 0,
  ...extra,
});

/**
 * The flow over lines already read: the queries answer from the cache, never the store. Without
 * `lines`, their readings are read when the flow starts.
 */
function renderFlow(lines?: Record<string, Transcription[]>) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const zones = LINES.map((line) => ({ ...line, type: 'text_line', zone: null }));
  client.setQueryData(storedZonesQuery(PAGE.id).queryKey, zones as unknown as ElementListItem[]);
  const key = storedLineTranscriptionsQuery(
    PAGE.id,
    LINES.map((line) => line.id),
  ).queryKey;
  if (lines) client.setQueryData(key, lines);
  render(
    <QueryClientProvider client={client}>
      <LineTranscriber page={PAGE} lines={LINES} onLine={() => {}} />
    </QueryClientProvider>,
  );
  return { reread: (next: Record<string, Transcription[]>) => client.setQueryData(key, next) };
}

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await localDb.outbox.clear();
});
beforeEach(resetClientState);
// The cache tells its views at once, so a read lands within act() as it would between keys.
beforeAll(() => notifyManager.setScheduler((callback) => callback()));
afterAll(() => notifyManager.setScheduler(defaultScheduler));

describe('line by line transcription', () => {
  it('keeps what is being typed when the lines are read again', async () => {
    const user = userEvent.setup();
    const { reread } = renderFlow({
      'line-a': [reading('t1', 'Mannheim.')],
      'line-b': [reading('t2', '1837.')],
    });
    await user.click(screen.getByRole('button', { name: 'Start' }));
    const field = screen.getByRole('textbox', { name: 'Text of line 1' });
    expect(field).toHaveProperty('value', 'Mannheim.');
    await user.clear(field);
    await user.type(field, 'MANNHEIM');
    // The edits synced: the lines come back from the server, another's work on them included.
    act(() => {
      reread({
        'line-a': [reading('t1', 'Mannheim.'), reading('t3', 'Manheim', { worker_run: null })],
        'line-b': [reading('t2', '1837.')],
      });
    });
    expect(screen.getByRole('textbox', { name: 'Text of line 1' })).toHaveProperty(
      'value',
      'MANNHEIM',
    );
  });

  it('writes a line right to left when its manual transcription is', async () => {
    const user = userEvent.setup();
    renderFlow({
      'line-a': [
        reading('t1', 'Verlag von Heinrich Hoff.'),
        reading('t2', 'فرلاغ فون هاينريش هوف', {
          worker_run: null,
          orientation: 'horizontal-rl',
        }),
      ],
      'line-b': [],
    });
    await user.click(screen.getByRole('button', { name: 'Start' }));
    const field = screen.getByRole('textbox', { name: 'Text of line 1' });
    expect(field).toHaveProperty('value', 'فرلاغ فون هاينريش هوف');
    expect(field.getAttribute('dir')).toBe('rtl');
  });

  it('waits for the line’s text when Enter comes before it, then goes on from there', async () => {
    const user = userEvent.setup();
    // The page's readings take a while to come (a slow network).
    let answer!: () => void;
    const arrived = new Promise<void>((resolve) => (answer = resolve));
    const { calls } = stubFetch(async (call) => {
      if (call.path !== `/element/${PAGE.id}/transcriptions/`) return json(404, {});
      await arrived;
      const owned = (lineId: string, item: Transcription) => ({ ...item, element: { id: lineId } });
      return json(200, {
        count: 2,
        next: null,
        previous: null,
        results: [
          owned('line-a', reading('t1', 'Mannheim.')),
          owned('line-b', reading('t2', '1837.', { worker_run: null })),
        ],
      });
    });
    renderFlow();
    await user.click(screen.getByRole('button', { name: 'Start' }));
    await user.keyboard('{Enter}');
    // Still on, on the first line, and nothing was saved over the line's text.
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    expect(screen.getByText('Line 1 of 2:')).toBeTruthy();

    answer();
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Text of line 1' })).toHaveProperty(
        'value',
        'Mannheim.',
      ),
    );
    await user.keyboard('{Enter}');
    const next = await screen.findByRole('textbox', { name: 'Text of line 2' });
    await waitFor(() => expect(next).toHaveProperty('value', '1837.'));
    expect(await localDb.outbox.count()).toBe(0);
    expect(calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });
});
