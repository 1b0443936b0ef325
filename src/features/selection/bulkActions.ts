/**
 * The bulk actions of the selection page (spec 001 §2 "Selection page", §6): what each needs,
 * and what the user reads once the server has it (spec 001 §8).
 */
import { ELEMENT_DELETE, FOLDER_WRITE, type Needs } from '@/lib/rights';

export type BulkAction =
  'dataset' | 'classify' | 'validate' | 'delete' | 'move' | 'link' | 'export';

export interface BulkActionInfo {
  label: string;
  needs: Needs;
  danger?: boolean;
}

/** In the order the page offers them. */
export const BULK_ACTIONS: Record<BulkAction, BulkActionInfo> = {
  dataset: { label: 'Add to a dataset', needs: { right: 'write' } },
  classify: { label: 'Create classifications', needs: { right: 'write' } },
  validate: { label: 'Validate classifications', needs: { right: 'write' } },
  move: { label: 'Move to a folder', needs: FOLDER_WRITE },
  link: { label: 'Link to a parent', needs: FOLDER_WRITE },
  // Spec 001 §6: an export process needs the project's admin right.
  export: { label: 'Export to a file', needs: { right: 'admin' } },
  delete: { label: 'Delete elements', needs: ELEMENT_DELETE, danger: true },
};

export const SCHEDULED = {
  delete: 'Elements deletion has been scheduled.',
  move: 'Elements moving has been scheduled.',
  link: 'Element linking has been scheduled.',
} as const;

export const EMPTY_SELECTION = 'Empty selection';
export const UNSELECT_ALL = 'Unselect all';

/** "1 element", "2 elements". */
export function countOf(count: number, singular: string): string {
  return `${count} ${singular}${count === 1 ? '' : 's'}`;
}
