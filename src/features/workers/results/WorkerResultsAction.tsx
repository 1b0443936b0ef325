import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ui } from '@/components/styles';
import { grantsRight } from '@/lib/rights';
import { WorkerResultsDeletionModal } from './WorkerResultsDeletionModal';

/** The project page's "Delete worker results", shown to the project's admins only. */
export function WorkerResultsAction({ corpusId }: { corpusId: string }) {
  const corpus = useQuery(corpusQuery(corpusId));
  const offline = useNeedsNetwork();
  const [open, setOpen] = useState(false);
  if (!corpus.data || !grantsRight(corpus.data.rights, 'admin')) return null;
  return (
    <>
      <GuardedButton
        blocked={offline}
        className={ui.dangerOutlineButton}
        onClick={() => setOpen(true)}
      >
        Delete worker results
      </GuardedButton>
      {open && (
        <WorkerResultsDeletionModal
          corpusId={corpusId}
          corpusName={corpus.data.name}
          onClose={() => setOpen(false)}
        />
      )}
    </>
  );
}
