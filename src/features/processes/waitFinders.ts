import { api } from '@/api/client';
import { fetchProcess } from '@/api/processes';
import { corpusWaitTarget, processWaitTarget, type WaitTarget } from './waitTarget';

/** The process once the server has it, and where it should be shown. */
export async function findProcess(id: string): Promise<WaitTarget> {
  return processWaitTarget(await fetchProcess(id));
}

/** The project once the server has it; read straight from the API, never from the local copy. */
export async function findCorpus(id: string): Promise<WaitTarget> {
  await api<unknown>(`/corpus/${id}/`);
  return corpusWaitTarget(id);
}
