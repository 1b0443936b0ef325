// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  defaultScheduler,
  notifyManager,
  QueryClient,
  QueryClientProvider,
} from '@tanstack/react-query';
import type { ElementListItem, Transcription } from '@/api/types';
import { LineTranscriber } from '@/features/transcriptions/LineTranscriber';
import { storedLineTranscriptionsQuery, storedZonesQuery } from '@/offline/queries';

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

/** The flow over lines already read: the queries answer from the cache, never the store. */
function renderFlow(lines: Record<string, Transcription[]>) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  const zones = LINES.map((line) => ({ ...line, type: 'text_line', zone: null }));
  client.setQueryData(storedZonesQuery(PAGE.id).queryKey, zones as unknown as ElementListItem[]);
  const key = storedLineTranscriptionsQuery(
    PAGE.id,
    LINES.map((line) => line.id),
  ).queryKey;
  client.setQueryData(key, lines);
  render(
    <QueryClientProvider client={client}>
      <LineTranscriber page={PAGE} lines={LINES} onLine={() => {}} />
    </QueryClientProvider>,
  );
  return { reread: (next: Record<string, Transcription[]>) => client.setQueryData(key, next) };
}

afterEach(cleanup);
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
});
