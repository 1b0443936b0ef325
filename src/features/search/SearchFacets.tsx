import { useId } from 'react';
import {
  SEARCH_FACETS,
  type SearchFacetName,
  type SearchFacetValue,
  type SearchParams,
} from '@/api/search';
import { ui } from '@/components/styles';
import { TRUNCATE, truncate } from '@/lib/truncate';
import { FACET_LABELS } from './labels';

export interface SearchFacetsProps {
  facets: Partial<Record<SearchFacetName, SearchFacetValue[]>>;
  selected: SearchParams['facets'];
  onToggle: (facet: SearchFacetName, value: string) => void;
}

/**
 * The facets beside the results: per facet, its values with how many hits each has. A value
 * filters the results when ticked; ticked again, it no longer does.
 */
export function SearchFacets({ facets, selected, onToggle }: SearchFacetsProps) {
  const shown = SEARCH_FACETS.filter(
    (facet) => (facets[facet]?.length ?? 0) > 0 || (selected[facet]?.length ?? 0) > 0,
  );
  if (shown.length === 0) return null;
  return (
    <div className="space-y-4">
      {shown.map((facet) => (
        <FacetList
          key={facet}
          facet={facet}
          values={facets[facet] ?? []}
          selected={selected[facet] ?? []}
          onToggle={(value) => onToggle(facet, value)}
        />
      ))}
    </div>
  );
}

function FacetList({
  facet,
  values,
  selected,
  onToggle,
}: {
  facet: SearchFacetName;
  values: SearchFacetValue[];
  selected: string[];
  onToggle: (value: string) => void;
}) {
  const headingId = useId();
  // A ticked value the results no longer count still shows, so it can be unticked.
  const missing = selected
    .filter((value) => !values.some((item) => item.value === value))
    .map((value) => ({ value, label: value, count: 0 }));
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-1 text-sm font-semibold text-slate-800">
        {FACET_LABELS[facet]}
      </h2>
      <ul className="space-y-0.5 text-sm">
        {[...values, ...missing].map((item) => (
          <li key={item.value}>
            <label className="flex cursor-pointer items-center gap-2 rounded px-1 py-0.5 hover:bg-slate-50">
              <input
                type="checkbox"
                className={ui.checkbox}
                checked={selected.includes(item.value)}
                onChange={() => onToggle(item.value)}
              />
              <span className="min-w-0 flex-1 truncate" title={item.label}>
                {truncate(item.label, TRUNCATE.short)}
              </span>
              <span className="rounded-full bg-slate-100 px-2 text-xs text-slate-600 tabular-nums">
                {item.count}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </section>
  );
}
