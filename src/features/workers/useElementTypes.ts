import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import type { ElementType } from '@/api/types';

/**
 * The element types an element_type field offers: the project's when the page knows one (its
 * address names it), else null and the field takes a slug as text.
 */
export function useElementTypes(corpusId: string | null): ElementType[] | null {
  const corpus = useQuery({ ...corpusQuery(corpusId ?? ''), enabled: !!corpusId });
  return corpusId && corpus.data ? corpus.data.types : null;
}
