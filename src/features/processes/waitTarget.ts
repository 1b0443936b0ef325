/**
 * Where a wait page goes once the resource exists (spec 000 §4): a project to its navigation; a
 * process to its details if it has tasks or is neither a dataset nor a workers process, else to
 * the filter page (workers) or the datasets page (dataset), where it is configured.
 */
import type { Process } from '@/api/processTypes';

export type WaitTarget =
  | { to: '/browse/$corpusId'; params: { corpusId: string } }
  | { to: '/process/$id/{-$selectedRun}'; params: { id: string; selectedRun: undefined } }
  | { to: '/process/$id/filter'; params: { id: string } }
  | { to: '/process/$id/datasets'; params: { id: string } };

export function processWaitTarget(process: Pick<Process, 'id' | 'mode' | 'tasks'>): WaitTarget {
  if (process.tasks.length === 0 && process.mode === 'workers') {
    return { to: '/process/$id/filter', params: { id: process.id } };
  }
  if (process.tasks.length === 0 && process.mode === 'dataset') {
    return { to: '/process/$id/datasets', params: { id: process.id } };
  }
  return { to: '/process/$id/{-$selectedRun}', params: { id: process.id, selectedRun: undefined } };
}

export function corpusWaitTarget(corpusId: string): WaitTarget {
  return { to: '/browse/$corpusId', params: { corpusId } };
}
