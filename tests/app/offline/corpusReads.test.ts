// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { localDb } from '@/offline/db';
import { readCorpus } from '@/offline/corpusReads';
import { NotAvailableOffline } from '@/offline/elementReads';
import { connectivity } from '@/offline/runtime';
import { isolateEachTest } from '../support/harness';
import { json, makeCorpus } from '../support/elementsApi';

isolateEachTest();

describe('a project read through the local store', () => {
  it('is kept when read, and answers from there when the network is gone', async () => {
    const corpus = makeCorpus({ name: 'Notary registers' });
    vi.stubGlobal('fetch', async () => json(200, corpus));
    expect((await readCorpus(corpus.id)).name).toBe('Notary registers');

    // The network goes away while the page reads it again.
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    expect((await readCorpus(corpus.id)).name).toBe('Notary registers');
    connectivity.store.set({ online: false, checkedAt: Date.now() });
    expect((await readCorpus(corpus.id)).types).toEqual(corpus.types);
    await localDb.corpora.clear();
    await expect(readCorpus(corpus.id)).rejects.toBeInstanceOf(NotAvailableOffline);
  });
});
