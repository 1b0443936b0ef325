import { useCallback, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Corpus, MlClassRef } from '@/api/types';
import { notify, notifyError } from '@/components/notifications/store';
import {
  BOOLEAN_FILTERS,
  describeFilterValue,
  validateFilter,
  type FilterName,
  type MetadataOperator,
} from '@/lib/filters';
import { withFilter, withoutFilter, type NavigationQuery } from '@/lib/navigationQuery';
import { corpusClassesQuery } from './api';
import type { FilterBarProps } from './FilterBar';

export interface FilterControlsOptions {
  corpus: Pick<Corpus, 'id' | 'types'>;
  query: NavigationQuery;
  /** Shows the list of another query (a navigation to its URL). */
  go: (next: NavigationQuery) => Promise<unknown>;
  /** The filters this list offers. */
  available: readonly FilterName[];
}

/**
 * What a filter bar over a project's elements needs, for the project's list and a folder's
 * alike: each value checked as spec 001 §5 says (classes loaded when first needed), chips named
 * after types and classes, and suggestions while typing.
 */
export function useFilterControls({ corpus, query, go, available }: FilterControlsOptions) {
  const corpusId = corpus.id;
  const types = corpus.types;
  const queryClient = useQueryClient();
  const [wantClasses, setWantClasses] = useState(false);
  const classes = useQuery({
    ...corpusClassesQuery(corpusId),
    enabled: wantClasses || query.filters.class_id !== undefined,
  });
  const classList: MlClassRef[] | null = classes.data ?? null;

  const describe = useCallback(
    (name: FilterName, value: string) =>
      describeFilterValue(name, value, { types, classes: classList }),
    [types, classList],
  );

  async function onAdd(name: FilterName, input: string, operator: MetadataOperator) {
    let known: MlClassRef[] | null = null;
    if (name === 'class_id') {
      try {
        known = await queryClient.fetchQuery(corpusClassesQuery(corpusId));
      } catch (error) {
        notifyError(error);
        return false;
      }
    }
    const result = validateFilter(name, input, {
      types,
      classes: known,
      metadataOperator: operator,
    });
    if (!result.ok) {
      notify({ type: 'error', text: result.message });
      return false;
    }
    await go(withFilter(query, name, result.value, operator));
    return true;
  }

  const suggestions = useCallback(
    (name: FilterName): readonly string[] => {
      if (name === 'type') return types.map((type) => type.display_name);
      if (name === 'class_id') return classList?.map((mlClass) => mlClass.name) ?? [];
      if (BOOLEAN_FILTERS.includes(name)) return ['Yes', 'No'];
      return [];
    },
    [types, classList],
  );

  const bar: FilterBarProps = {
    filters: query.filters,
    metadataOperator: query.metadataOperator,
    available,
    describe,
    suggestions,
    onAdd,
    onRemove: (name) => void go(withoutFilter(query, name)),
    onChoose: (name) => name === 'class_id' && setWantClasses(true),
  };
  return { describe, bar };
}
