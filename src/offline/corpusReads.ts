/**
 * A project read through the local store: its answer is kept (packs keep it too), so its types
 * and rights are there offline, even when the network went away while it was being read.
 */
import { api } from '@/api/client';
import type { Corpus } from '@/api/types';
import { localDb } from './db';
import { NotAvailableOffline, tryNetwork } from './elementReads';
import { connectivity } from './runtime';

export async function readCorpus(id: string): Promise<Corpus> {
  const options = {
    online: connectivity.store.get().online,
    onUnreachable: () => connectivity.reportUnreachable(),
  };
  const answer = await tryNetwork(options, () => api<Corpus>(`/corpus/${id}/`));
  if (answer) {
    await localDb.corpora.put({ id, data: answer, savedAt: Date.now() });
    return answer;
  }
  const stored = await localDb.corpora.get(id);
  if (!stored) throw new NotAvailableOffline();
  return stored.data;
}
