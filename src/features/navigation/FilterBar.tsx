import { useId, useState, type FormEvent } from 'react';
import {
  DEFAULT_METADATA_OPERATOR,
  FILTER_LABELS,
  METADATA_OPERATORS,
  METADATA_OPERATOR_LABELS,
  type FilterName,
  type Filters,
  type MetadataOperator,
} from '@/lib/filters';
import { ui } from './styles';

const OPERATOR_SYMBOLS: Record<MetadataOperator, string> = {
  eq: '=',
  lt: '<',
  lte: '≤',
  gt: '>',
  gte: '≥',
  contains: 'contains',
};

export interface FilterBarProps {
  filters: Filters;
  metadataOperator: MetadataOperator;
  /** The filters this list offers, in the order they are listed. */
  available: readonly FilterName[];
  /** How a filter's value reads on its chip. */
  describe: (name: FilterName, value: string) => string;
  /** Values to suggest while typing (types, Yes/No…). */
  suggestions?: (name: FilterName) => readonly string[];
  /** Checks and adds a filter; resolves to false when it was refused (the caller says why). */
  onAdd: (name: FilterName, value: string, operator: MetadataOperator) => Promise<boolean>;
  onRemove: (name: FilterName) => void;
  /** Called when a filter name is chosen, so its suggestions can start loading. */
  onChoose?: (name: FilterName) => void;
}

/** The filter bar: one filter per name, each added by name and value, shown as chips. */
export function FilterBar({
  filters,
  metadataOperator,
  available,
  describe,
  suggestions,
  onAdd,
  onRemove,
  onChoose,
}: FilterBarProps) {
  const unused = available.filter((name) => filters[name] === undefined);
  const active = available.filter((name) => filters[name] !== undefined);
  const [chosen, setChosen] = useState<FilterName | null>(null);
  const name = chosen && unused.includes(chosen) ? chosen : (unused[0] ?? null);
  const [value, setValue] = useState('');
  const [operator, setOperator] = useState<MetadataOperator>(DEFAULT_METADATA_OPERATOR);
  const [busy, setBusy] = useState(false);
  const nameId = useId();
  const valueId = useId();
  const operatorId = useId();
  const listId = useId();
  const chipsId = useId();
  const options = name ? (suggestions?.(name) ?? []) : [];

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name || busy || value.trim() === '') return;
    setBusy(true);
    try {
      if (await onAdd(name, value, operator)) {
        setValue('');
        setOperator(DEFAULT_METADATA_OPERATOR);
        setChosen(null);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-label="Filters" className={ui.panel}>
      {name && (
        <form className="flex flex-wrap items-end gap-2" onSubmit={submit}>
          <div>
            <label htmlFor={nameId} className={ui.label}>
              Filter
            </label>
            <select
              id={nameId}
              className={`${ui.select} mt-1`}
              value={name}
              onChange={(event) => {
                const next = event.target.value as FilterName;
                setChosen(next);
                onChoose?.(next);
              }}
            >
              {unused.map((option) => (
                <option key={option} value={option}>
                  {FILTER_LABELS[option]}
                </option>
              ))}
            </select>
          </div>
          {name === 'metadata_value' && (
            <div>
              <label htmlFor={operatorId} className={ui.label}>
                Operator
              </label>
              <select
                id={operatorId}
                className={`${ui.select} mt-1`}
                value={operator}
                onChange={(event) => setOperator(event.target.value as MetadataOperator)}
              >
                {METADATA_OPERATORS.map((option) => (
                  <option key={option} value={option}>
                    {METADATA_OPERATOR_LABELS[option]}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div className="min-w-48 flex-1">
            <label htmlFor={valueId} className={ui.label}>
              Value
            </label>
            <input
              id={valueId}
              className={`${ui.input} mt-1 w-full`}
              value={value}
              list={options.length ? listId : undefined}
              autoComplete="off"
              spellCheck={false}
              onChange={(event) => setValue(event.target.value)}
            />
            {options.length > 0 && (
              <datalist id={listId}>
                {options.map((option) => (
                  <option key={option} value={option} />
                ))}
              </datalist>
            )}
          </div>
          <button type="submit" className={ui.primaryButton} disabled={busy || value.trim() === ''}>
            Add filter
          </button>
        </form>
      )}

      {active.length > 0 && (
        <>
          <h2 id={chipsId} className="sr-only">
            Active filters
          </h2>
          <ul aria-labelledby={chipsId} className={`flex flex-wrap gap-2 ${name ? 'mt-3' : ''}`}>
            {active.map((filter) => {
              const label = FILTER_LABELS[filter];
              const shown = describe(filter, filters[filter]!);
              const comparison =
                filter === 'metadata_value' && metadataOperator !== DEFAULT_METADATA_OPERATOR
                  ? `${OPERATOR_SYMBOLS[metadataOperator]} `
                  : '';
              return (
                <li
                  key={filter}
                  className="inline-flex max-w-full items-center gap-1 rounded-full border border-brand-100 bg-white py-0.5 pr-1 pl-3 text-sm text-slate-700 shadow-sm"
                >
                  <span className="truncate">
                    <span className="font-medium text-brand-700">{label}:</span> {comparison}
                    {shown}
                  </span>
                  <button
                    type="button"
                    aria-label={`Remove filter ${label}`}
                    className="inline-flex size-6 shrink-0 items-center justify-center rounded-full text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-brand-500"
                    onClick={() => onRemove(filter)}
                  >
                    <span aria-hidden="true">×</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
