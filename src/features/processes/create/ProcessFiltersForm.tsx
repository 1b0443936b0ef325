import { useEffect, useId, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  classChoicesQuery,
  processConfigurationKeys,
  updateProcessFilters,
  type ProcessFilters,
} from '@/api/processConfiguration';
import type { LoadChildren, Process } from '@/api/processTypes';
import type { ElementType } from '@/api/types';
import { notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';

export const LOAD_CHILDREN_LABELS: Record<LoadChildren, string> = {
  none: 'No children',
  direct: 'Direct children',
  all: 'All descendants',
};

// Typing a name saves once the user pauses, not on every key.
const NAME_DELAY_MS = 400;

/** The process' element filters; each change PATCHes the process, and the list follows. */
export function ProcessFiltersForm({ process, types }: { process: Process; types: ElementType[] }) {
  const id = useId();
  const queryClient = useQueryClient();
  const classes = useQuery({
    ...classChoicesQuery(process.corpus ?? ''),
    enabled: !!process.corpus,
  });
  const update = useMutation({
    mutationFn: (filters: ProcessFilters) => updateProcessFilters(process.id, filters),
    onSuccess: (updated) =>
      queryClient.setQueryData(processConfigurationKeys.process(process.id), updated),
    onError: (error) => notifyError(error),
  });
  const [name, setName] = useState(process.element_name_contains ?? '');
  const saved = useRef(process.element_name_contains ?? '');
  useEffect(() => {
    const wanted = name.trim();
    if (wanted === saved.current) return;
    const timer = setTimeout(() => {
      const previous = saved.current;
      saved.current = wanted;
      // Refused: the next keystroke tries again rather than taking the text as saved.
      update.mutate(
        { element_name_contains: wanted || null },
        { onError: () => (saved.current = previous) },
      );
    }, NAME_DELAY_MS);
    return () => clearTimeout(timer);
    // `update` changes on every render; the name alone decides when to save.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name]);

  return (
    <form
      aria-label="Element filters"
      className={`${ui.card} grid gap-3 sm:grid-cols-2 lg:grid-cols-4`}
      onSubmit={(event) => event.preventDefault()}
    >
      <div>
        <label htmlFor={`${id}-type`} className={ui.label}>
          Element type
        </label>
        <select
          id={`${id}-type`}
          className={ui.input}
          value={process.element_type ?? ''}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ element_type: event.target.value || null })}
        >
          <option value="">All types</option>
          {types.map((type) => (
            <option key={type.slug} value={type.slug}>
              {type.display_name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-name`} className={ui.label}>
          Name contains
        </label>
        <input
          id={`${id}-name`}
          type="search"
          className={ui.input}
          value={name}
          maxLength={250}
          onChange={(event) => setName(event.target.value)}
        />
      </div>
      <div>
        <label htmlFor={`${id}-class`} className={ui.label}>
          Class
        </label>
        <select
          id={`${id}-class`}
          className={ui.input}
          value={process.ml_class_id ?? ''}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ ml_class_id: event.target.value || null })}
        >
          <option value="">Any class</option>
          {(classes.data ?? []).map((mlClass) => (
            <option key={mlClass.id} value={mlClass.id}>
              {mlClass.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${id}-children`} className={ui.label}>
          Load children
        </label>
        <select
          id={`${id}-children`}
          className={ui.input}
          value={process.load_children}
          disabled={update.isPending}
          onChange={(event) => update.mutate({ load_children: event.target.value as LoadChildren })}
        >
          {(Object.keys(LOAD_CHILDREN_LABELS) as LoadChildren[]).map((value) => (
            <option key={value} value={value}>
              {LOAD_CHILDREN_LABELS[value]}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
