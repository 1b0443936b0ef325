import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import type { ListQuery } from '@/api/elements';
import { currentUserQuery } from '@/api/user';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ui } from '@/components/styles';
import { PopulateModal, populateBlocked } from './PopulateModal';

export interface PopulateActionProps {
  corpusId: string;
  /** The listing's current query: the modal takes its type and recursive flag. */
  filters: ListQuery;
  /** The folder the listing shows, or null for the project's list. */
  parentId?: string | null;
}

/** "Populate a dataset" beside a listing; it says why when the user may not. */
export function PopulateAction({ corpusId, filters, parentId = null }: PopulateActionProps) {
  const corpus = useQuery(corpusQuery(corpusId));
  const user = useQuery(currentUserQuery);
  // The job runs on the server: offline there is nothing to start it.
  const offline = useNeedsNetwork();
  const [open, setOpen] = useState(false);
  if (!corpus.data) return null;
  return (
    <>
      <GuardedButton
        blocked={populateBlocked(corpus.data, user.data ?? null) ?? offline}
        className={ui.secondaryButton}
        onClick={() => setOpen(true)}
      >
        Populate a dataset
      </GuardedButton>
      {open && (
        <PopulateModal
          corpus={corpus.data}
          parentId={parentId}
          filters={filters}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
