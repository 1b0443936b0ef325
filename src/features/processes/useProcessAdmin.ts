/**
 * Whether the caller may act on a process (stop, retry, delete, clear, configure, restart or
 * stop tasks): an admin of its project, or a site admin (spec 000 §6). Until the project's
 * rights are known, nothing is offered.
 */
import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import type { Process } from '@/api/processTypes';
import { currentUserQuery } from '@/api/user';
import { grantsRight } from '@/lib/rights';

export function useProcessAdmin(process: Pick<Process, 'corpus'> | undefined): boolean {
  const user = useQuery(currentUserQuery).data ?? null;
  const corpusId = process?.corpus ?? '';
  const corpus = useQuery({ ...corpusQuery(corpusId), enabled: !!corpusId && !user?.is_admin });
  if (user?.is_admin) return true;
  return !!corpus.data && grantsRight(corpus.data.rights, 'admin');
}
