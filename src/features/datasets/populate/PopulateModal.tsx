import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PopulateStarted } from '@/api/datasets';
import type { ListQuery } from '@/api/elements';
import type { Corpus } from '@/api/types';
import { currentUserQuery } from '@/api/user';
import { Modal } from '@/components/modal/Modal';
import { RIGHT_MESSAGES, accessOf, grantsRight, type Needs } from '@/lib/rights';
import { POPULATE_TITLE, PopulateForm } from './PopulateForm';
import { PopulateProgress } from './PopulateProgress';
import { CloseAction } from '@/components/modal/ModalActions';

/** Spec 001 §6, word for word. */
export const POPULATE_RIGHTS_MESSAGE =
  'You must have a contributor access in order to perform this action.';

/** Spec 001 §6: populating needs write rights and a verified e-mail. */
export const POPULATE_NEEDS: Needs = { right: 'write', verified: true };

/** Why the user may not populate in this project, or null when they may. */
export function populateBlocked(
  corpus: Pick<Corpus, 'rights' | 'types'>,
  user: Parameters<typeof accessOf>[1],
): string | null {
  const access = accessOf(corpus, user);
  if (!grantsRight(access.rights, POPULATE_NEEDS.right)) return POPULATE_RIGHTS_MESSAGE;
  if (POPULATE_NEEDS.verified && !access.verified) return RIGHT_MESSAGES.verified;
  return null;
}

export interface PopulateModalProps {
  corpus: Corpus;
  /** The folder to draw from; null draws from the whole project (or the listing's folder). */
  parentId: string | null;
  /** The listing's query: its type and recursive flag are used, its other filters named. */
  filters: ListQuery;
  onClose(): void;
  /** How often the job is read once started. */
  pollMs?: number;
}

/** Populate dataset (spec 001 §2 "Modals", §5 "Populate"): a random split of the project's elements. */
export function PopulateModal({ corpus, parentId, filters, onClose, pollMs }: PopulateModalProps) {
  const user = useQuery(currentUserQuery);
  const [started, setStarted] = useState<PopulateStarted | null>(null);
  if (started) return <PopulateProgress started={started} onClose={onClose} pollMs={pollMs} />;

  const blocked = user.isPending ? null : populateBlocked(corpus, user.data ?? null);
  if (user.isPending || blocked) {
    return (
      <Modal title={POPULATE_TITLE} onClose={onClose} footer={<CloseAction onClose={onClose} />}>
        {blocked ? <p role="alert">{blocked}</p> : <p role="status">Loading…</p>}
      </Modal>
    );
  }
  return (
    <PopulateForm
      corpus={corpus}
      parentId={parentId}
      filters={filters}
      onClose={onClose}
      onStarted={setStarted}
    />
  );
}
