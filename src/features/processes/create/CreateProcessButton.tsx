import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import type { Element } from '@/api/types';
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
 * workers process over every element of the project.
 */
export function CreateProcessButton({ corpusId }: { corpusId: string }) {
  const corpus = useQuery(corpusQuery(corpusId));
  const offline = useNeedsNetwork();
  const { create, pending } = useCreateProcess();
  if (!corpus.data || !grantsRight(corpus.data.rights, 'admin')) return null;
  return (
    <GuardedButton
      blocked={offline}
      className={ui.secondaryButton}
      disabled={pending}
      onClick={() => create({ corpus: corpusId, load_children: 'all' })}
    >
      Create a process
    </GuardedButton>
  );
}
