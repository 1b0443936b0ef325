import type { ProcessListItem } from '@/api/processTypes';

/** A process without a name reads by its id, as the processes list names it. */
export function processTitle(process: Pick<ProcessListItem, 'id' | 'name'>): string {
  return process.name?.trim() || `Process ${process.id.slice(0, 8)}`;
}
