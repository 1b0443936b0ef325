/**
 * "Create a process" from a dataset (api part 2 §2.1): a process of mode `dataset` in the
 * dataset's project, with the dataset's sets already chosen, so that the datasets step opens
 * on them; the user may still change them there before configuring the workers.
 */
import { api } from '@/api/client';
import type { Dataset } from '@/api/datasets';
import type { Process } from '@/api/processTypes';
import { addProcessSet } from './processSets';

export async function createDatasetProcess(
  dataset: Pick<Dataset, 'corpus_id' | 'sets'>,
  options: { name?: string } = {},
): Promise<string> {
  const process = await api<Process>('/process/corpus/', {
    method: 'POST',
    body: { corpus: dataset.corpus_id, mode: 'dataset', ...options },
  });
  for (const set of dataset.sets) await addProcessSet(process.id, set.id);
  return process.id;
}
