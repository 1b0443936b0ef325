import type { Dataset } from '@/api/datasets';

/** The element count of a dataset's set, by name (0 for a set the dataset no longer has). */
export function setSize(dataset: Pick<Dataset, 'set_elements'>, name: string): number {
  return dataset.set_elements[name] ?? 0;
}

export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
