import { useEffect, useId, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Dataset } from '@/api/datasets';
import { storedCorpusDatasetsQuery } from '@/offline/datasetReads';
import { ErrorList } from '@/components/modal/ErrorList';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';

/** Spec 001 §8 "Datasets", word for word. */
export const NO_DATASET = 'No dataset available';
export const DATASETS_FETCH_ERROR = 'An error occurred fetching datasets for this corpus.';
export const FIELD_REQUIRED = 'This field is required';

/** The project's datasets for a modal's select; a failed read says so once, in the spec's words. */
export function useCorpusDatasets(corpusId: string) {
  const datasets = useQuery(storedCorpusDatasetsQuery(corpusId));
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!datasets.error || reported.current === datasets.error) return;
    reported.current = datasets.error;
    notify({ type: 'error', text: DATASETS_FETCH_ERROR });
  }, [datasets.error]);
  return datasets;
}

export interface DatasetSelectProps {
  /** The project's datasets as useCorpusDatasets reads them: loading, failed or there. */
  datasets: ReturnType<typeof useCorpusDatasets>;
  value: string;
  onChange: (dataset: Dataset | null) => void;
  errors: readonly string[];
  disabled?: boolean;
}

/**
 * The dataset to work on. Only open datasets accept elements (spec 001 §4): the others are
 * listed with their state but cannot be chosen, so nobody wonders where theirs went.
 */
export function DatasetSelect({
  datasets: query,
  value,
  onChange,
  errors,
  disabled,
}: DatasetSelectProps) {
  const id = useId();
  const errorsId = `${id}-errors`;
  if (query.isPending) return <p role="status">Loading datasets…</p>;
  if (query.isError) {
    return (
      <div>
        <p className={ui.label}>Dataset</p>
        <p className="mt-1 text-red-700">{DATASETS_FETCH_ERROR}</p>
      </div>
    );
  }
  const datasets = query.data;
  if (!datasets.some((dataset) => dataset.state === 'open')) {
    return (
      <div>
        <p className={ui.label}>Dataset</p>
        <p className="mt-1 text-slate-600">{NO_DATASET}</p>
        <ErrorList messages={errors} />
      </div>
    );
  }
  return (
    <div>
      <label htmlFor={id} className={ui.label}>
        Dataset
      </label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) =>
          onChange(datasets.find((dataset) => dataset.id === event.target.value) ?? null)
        }
        aria-invalid={errors.length > 0}
        aria-describedby={errors.length ? errorsId : undefined}
        className={ui.input}
      >
        <option value="">Choose a dataset</option>
        {datasets.map((dataset) => (
          <option key={dataset.id} value={dataset.id} disabled={dataset.state !== 'open'}>
            {dataset.state === 'open' ? dataset.name : `${dataset.name} (${dataset.state})`}
          </option>
        ))}
      </select>
      <ErrorList id={errorsId} messages={errors} />
    </div>
  );
}

/** The only open dataset, chosen for the user; with several the choice is theirs. */
export function soleOpenDataset(datasets: readonly Dataset[]): Dataset | null {
  const open = datasets.filter((dataset) => dataset.state === 'open');
  return open.length === 1 ? open[0]! : null;
}
