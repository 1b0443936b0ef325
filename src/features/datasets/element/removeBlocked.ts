/**
 * Why an element cannot be taken out of a set here (spec 001 §4 Dataset, §6): a write right on
 * the project and a verified e-mail, then an open dataset, in the spec's tooltip words.
 */
import type { Dataset } from '@/api/datasets';
import { RIGHT_MESSAGES } from '@/lib/rights';
import { DATASET_TEXT } from '../datasetRights';

export function removeBlocked(
  access: { canWrite: boolean; verified: boolean },
  dataset: Pick<Dataset, 'state'>,
): string | null {
  if (!access.canWrite) return DATASET_TEXT.noEditRight;
  if (!access.verified) return RIGHT_MESSAGES.verified;
  return dataset.state === 'open' ? null : DATASET_TEXT.notOpen;
}
