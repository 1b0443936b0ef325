import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import { selectionCountQuery } from '@/api/processConfiguration';
import { serverInfoQuery } from '@/api/serverInfo';
import type { Element } from '@/api/types';
import { currentUserQuery, isVerified } from '@/api/user';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { ui } from '@/components/styles';
import { grantsRight } from '@/lib/rights';
import { useCreateProcess } from './useCreateProcess';

/**
 * The element page's "Create a process": a workers process over the element and everything
 * under it, whose filters the next step adjusts.
 */
export function useCreateProcessFromElement(): (element: Element) => void {
  const { create } = useCreateProcess();
  return (element) =>
    create({ corpus: element.corpus.id, element: element.id, load_children: 'all' });
}

/**
 * The project page's "Create a process", shown to the project's admins only (spec 000 §6): a
 * workers process over every element of the project, and, when the user has selected elements
 * of this project, one over those.
 */
export function CreateProcessButton({ corpusId }: { corpusId: string }) {
  const corpus = useQuery(corpusQuery(corpusId));
  const offline = useNeedsNetwork();
  const { create, pending } = useCreateProcess();
  const isAdmin = !!corpus.data && grantsRight(corpus.data.rights, 'admin');
  if (!isAdmin) return null;
  return (
    <>
      <GuardedButton
        blocked={offline}
        className={ui.secondaryButton}
        disabled={pending}
        onClick={() => create({ corpus: corpusId, load_children: 'all' })}
      >
        Create a process
      </GuardedButton>
      <FromSelectionButton
        corpusId={corpusId}
        blocked={offline}
        pending={pending}
        onCreate={() => create({ corpus: corpusId, selection: true, load_children: 'none' })}
      />
    </>
  );
}

/** Only with the selection feature, for verified users, once this project has a selection. */
function FromSelectionButton({
  corpusId,
  blocked,
  pending,
  onCreate,
}: {
  corpusId: string;
  blocked: string | null;
  pending: boolean;
  onCreate: () => void;
}) {
  const info = useQuery(serverInfoQuery);
  const user = useQuery(currentUserQuery);
  const enabled = !!info.data?.features.selection && isVerified(user.data);
  const count = useQuery({ ...selectionCountQuery(corpusId), enabled });
  if (!enabled || !count.data) return null;
  return (
    <GuardedButton
      blocked={blocked}
      className={ui.secondaryButton}
      disabled={pending}
      onClick={onCreate}
    >
      Create a process from the selection ({count.data})
    </GuardedButton>
  );
}
