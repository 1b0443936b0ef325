/**
 * Who may change a dataset and its sets (spec 001 §4 Dataset, §6), and why not, in the spec's
 * tooltip words. Rights come first, then the verified e-mail the server asks of every change,
 * then the dataset's state: only an open dataset accepts set changes.
 */
import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import type { Dataset } from '@/api/datasets';
import { currentUserQuery } from '@/api/user';
import { RIGHT_MESSAGES, accessOf, grantsRight } from '@/lib/rights';

export const DATASET_TEXT = {
  noEditRight: 'You do not have the required rights to edit this dataset',
  notOpen: 'Only open datasets can be edited',
  createSet: 'You must be a contributor on the project to create a set',
  deleteSet: 'You must be an administrator on the project to delete dataset sets',
  onlySet: 'This is the only set in the dataset and cannot be deleted',
  emptyFields: 'Name and description fields cannot be empty',
  noDataset: 'No dataset available',
  fetchFailed: 'An error occurred fetching datasets for this corpus.',
  setCreated: (name: string) => `Dataset set created: ${name}`,
  setUpdated: 'Dataset set updated',
  setDeleted: 'Dataset set deleted',
} as const;

export interface DatasetAccess {
  canWrite: boolean;
  canAdmin: boolean;
  verified: boolean;
  /** False until the project's rights are in: every change waits for them. */
  known: boolean;
}

/** The caller's access to a project's datasets, from the project's rights and the account. */
export function useDatasetAccess(corpusId: string): DatasetAccess {
  const { data: corpus } = useQuery(corpusQuery(corpusId));
  const { data: user = null } = useQuery(currentUserQuery);
  const access = accessOf(corpus, user);
  return {
    canWrite: grantsRight(access.rights, 'write'),
    canAdmin: grantsRight(access.rights, 'admin'),
    verified: access.verified,
    known: corpus !== undefined,
  };
}

type State = Pick<Dataset, 'state'>;

/** Editing the dataset's name, description and uniqueness. */
export function editBlocked(access: DatasetAccess): string | null {
  if (!access.canWrite) return DATASET_TEXT.noEditRight;
  if (!access.verified) return RIGHT_MESSAGES.verified;
  return null;
}

export function createSetBlocked(access: DatasetAccess, dataset: State): string | null {
  if (!access.canWrite) return DATASET_TEXT.createSet;
  if (!access.verified) return RIGHT_MESSAGES.verified;
  return dataset.state === 'open' ? null : DATASET_TEXT.notOpen;
}

export function renameSetBlocked(access: DatasetAccess, dataset: State): string | null {
  return editBlocked(access) ?? (dataset.state === 'open' ? null : DATASET_TEXT.notOpen);
}

export function deleteSetBlocked(
  access: DatasetAccess,
  dataset: State & Pick<Dataset, 'sets'>,
): string | null {
  if (!access.canAdmin) return DATASET_TEXT.deleteSet;
  if (!access.verified) return RIGHT_MESSAGES.verified;
  if (dataset.state !== 'open') return DATASET_TEXT.notOpen;
  return dataset.sets.length <= 1 ? DATASET_TEXT.onlySet : null;
}

/** Cloning: a new dataset of the project, as creating one. */
export function cloneBlocked(access: DatasetAccess): string | null {
  if (!access.canWrite) return RIGHT_MESSAGES.contributor;
  return access.verified ? null : RIGHT_MESSAGES.verified;
}

/** Deleting the dataset, or reopening it once complete or failed. */
export function adminBlocked(access: DatasetAccess): string | null {
  if (!access.canAdmin) return RIGHT_MESSAGES.admin;
  return access.verified ? null : RIGHT_MESSAGES.verified;
}
