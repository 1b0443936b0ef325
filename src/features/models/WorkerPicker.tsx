import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { workerChoiceQuery, workerChoicesQuery, type ModelWorker } from '@/api/models';
import { errorMessage } from '@/api/errors';
import { ui } from '@/components/styles';

/**
 * Picks one worker of GET /workers/: a search on name or slug narrows the choices, so a site
 * with many workers still offers the one wanted.
 */
export function WorkerPicker({
  label,
  value,
  onChange,
  emptyLabel,
  exclude = [],
  disabled = false,
}: {
  label: string;
  value: string | null;
  onChange: (worker: ModelWorker | null) => void;
  /** The choice meaning "no worker" ("Any worker"); none when a worker must be picked. */
  emptyLabel: string;
  /** Workers not to offer (those already linked). */
  exclude?: readonly string[];
  disabled?: boolean;
}) {
  const id = useId();
  const [search, setSearch] = useState('');
  const choices = useQuery(workerChoicesQuery(search.trim()));
  const workers = (choices.data?.results ?? []).filter((worker) => !exclude.includes(worker.id));
  const known = value === null || workers.some((worker) => worker.id === value);
  // A worker chosen before (or from the address) keeps its name while a search hides it.
  const chosen = useQuery({ ...workerChoiceQuery(value ?? ''), enabled: !known && !!value });
  return (
    <div className="flex flex-wrap items-end gap-2">
      <div className="min-w-40 grow">
        <label htmlFor={`${id}-search`} className={ui.label}>
          Search workers
        </label>
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          maxLength={100}
          disabled={disabled}
          onChange={(event) => setSearch(event.target.value)}
          className={ui.input}
        />
      </div>
      <div className="min-w-48 grow">
        <label htmlFor={`${id}-worker`} className={ui.label}>
          {label}
        </label>
        <select
          id={`${id}-worker`}
          value={value ?? ''}
          disabled={disabled}
          aria-describedby={choices.isError ? `${id}-error` : undefined}
          onChange={(event) =>
            onChange(workers.find((worker) => worker.id === event.target.value) ?? null)
          }
          className={ui.input}
        >
          <option value="">{emptyLabel}</option>
          {!known && value && (
            <option value={value}>
              {chosen.data ? `${chosen.data.name} (${chosen.data.slug})` : `Worker ${value}`}
            </option>
          )}
          {workers.map((worker) => (
            <option key={worker.id} value={worker.id}>
              {worker.name} ({worker.slug})
            </option>
          ))}
        </select>
      </div>
      {choices.isError && (
        <p id={`${id}-error`} className={`${ui.fieldError} w-full`}>
          The workers could not be listed: {errorMessage(choices.error)}
        </p>
      )}
    </div>
  );
}
