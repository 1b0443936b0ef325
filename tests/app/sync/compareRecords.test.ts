import { describe, expect, it } from 'vitest';
import { compareConflict, conflictSubject, mergeable } from '@/features/sync/compare';
import type { OutboxEntry } from '@/offline/outboxEntry';

const entry = (patch: Partial<OutboxEntry>): OutboxEntry => ({
  entityId: 't1',
  corpusId: 'c1',
  kind: 'transcription.update',
  payload: { changes: { text: 'Mine' } },
  previous: { id: 't1', ownerId: 'e1', data: { text: 'Base', orientation: 'horizontal-lr' } },
  refIds: ['t1'],
  idempotencyKey: 'k',
  status: 'conflict',
  attempts: 1,
  nextAttemptAt: 0,
  error: null,
  current: { id: 't1', text: 'Theirs', orientation: 'horizontal-lr' },
  currentLastModified: null,
  createdAt: 0,
  label: 'Transcription “Mine”',
  ...patch,
});

describe('conflicts of transcriptions and metadata', () => {
  it('compare the text before, mine and on the server, and offer to merge it', () => {
    const conflict = entry({});
    expect(conflictSubject(conflict)).toBe('transcription');
    expect(compareConflict(conflict)).toEqual([
      {
        key: 'text',
        label: 'Text',
        before: 'Base',
        mine: 'Mine',
        theirs: 'Theirs',
        changedThere: true,
      },
    ]);
    expect(mergeable(conflict)).toEqual({ label: 'Merged text', value: 'Mine' });
  });

  it("show a deleted metadata's fields against the server's", () => {
    const conflict = entry({
      kind: 'metadata.delete',
      payload: {},
      previous: { id: 'm1', ownerId: 'e1', data: { name: 'Date', type: 'date', value: '1789' } },
      current: { id: 'm1', name: 'Date', type: 'date', value: '1790' },
    });
    expect(conflictSubject(conflict)).toBe('metadata');
    expect(
      compareConflict(conflict).map((row) => [row.label, row.before, row.mine, row.theirs]),
    ).toEqual([
      ['Name', 'Date', 'Deleted', 'Date'],
      ['Type', 'date', 'Deleted', 'date'],
      ['Value', '1789', 'Deleted', '1790'],
    ]);
    expect(mergeable(conflict)).toBeNull();
  });
});
