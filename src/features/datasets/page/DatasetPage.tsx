/**
 * The dataset page (/dataset/{datasetId}, spec 001 §2): the dataset's details and actions, a
 * chart of its set sizes, and one tab per set listing its elements page after page. A dataset
 * being built is read again every 2 s, with its populate job's progress.
 */
import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { corpusQuery } from '@/api/corpora';
import type { Dataset } from '@/api/datasets';
import { PageMessage } from '@/components/PageMessage';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { ui } from '@/components/styles';
import { useDocumentTitle } from '@/lib/documentTitle';
import { useDatasetAccess, type DatasetAccess } from '../datasetRights';
import { BuildProgress } from './BuildProgress';
import { DatasetActions } from './DatasetActions';
import { DatasetStateBadge } from './DatasetStateBadge';
import { SetSizeChart } from './SetSizeChart';
import { SetTabs } from './SetTabs';
import { useDataset } from './useDataset';

export interface DatasetPageProps {
  datasetId: string;
  /** The set whose elements are shown, by name. */
  set: string | undefined;
  onSelectSet: (set: string) => void;
  /** Actions another feature adds beside the dataset's own (a process over its sets). */
  renderActions?: (dataset: Dataset, access: DatasetAccess) => ReactNode;
}

export function DatasetPage({ datasetId, set, onSelectSet, renderActions }: DatasetPageProps) {
  const dataset = useDataset(datasetId);
  useErrorNotification(dataset.error);
  if (dataset.isPending) {
    return (
      <PageMessage width="max-w-4xl" loading>
        Loading…
      </PageMessage>
    );
  }
  if (dataset.isError) {
    return <PageMessage width="max-w-4xl">The dataset could not be loaded.</PageMessage>;
  }
  return (
    <DatasetView
      dataset={dataset.data}
      set={set}
      onSelectSet={onSelectSet}
      renderActions={renderActions}
    />
  );
}

function DatasetView({
  dataset,
  set,
  onSelectSet,
  renderActions,
}: Omit<DatasetPageProps, 'datasetId'> & { dataset: Dataset }) {
  useDocumentTitle([dataset.name]);
  const corpus = useQuery(corpusQuery(dataset.corpus_id));
  const access = useDatasetAccess(dataset.corpus_id);
  const types = corpus.data?.types ?? [];
  const typeName = (slug: string) => types.find((type) => type.slug === slug)?.display_name ?? slug;

  return (
    <section
      aria-labelledby="dataset-heading"
      className="mx-auto flex max-w-6xl flex-col gap-6 p-6"
    >
      <header className="flex flex-col gap-3">
        <p className="text-sm">
          <Link to="/browse/$corpusId" params={{ corpusId: dataset.corpus_id }} className={ui.link}>
            {corpus.data?.name ?? 'Project'}
          </Link>
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 id="dataset-heading" className="text-2xl font-semibold break-words text-brand-900">
            {dataset.name}
          </h1>
          <DatasetStateBadge state={dataset.state} />
        </div>
        <p className="whitespace-pre-wrap text-slate-700">{dataset.description}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
          <dt className="text-slate-500">Creator</dt>
          <dd className="text-slate-800">{dataset.creator ?? '—'}</dd>
          <dt className="text-slate-500">Unique elements</dt>
          <dd className="text-slate-800">{dataset.unique_elements ? 'Yes' : 'No'}</dd>
          <dt className="text-slate-500">Created</dt>
          <dd className="text-slate-800">
            <time dateTime={dataset.created}>{new Date(dataset.created).toLocaleString()}</time>
          </dd>
          <dt className="text-slate-500">ID</dt>
          <dd className="font-mono text-xs text-slate-800">{dataset.id}</dd>
        </dl>
        <DatasetActions dataset={dataset} access={access}>
          {renderActions?.(dataset, access)}
        </DatasetActions>
      </header>
      {dataset.state === 'building' && <BuildProgress jobId={dataset.populate_job_id ?? null} />}
      <SetSizeChart dataset={dataset} />
      <SetTabs dataset={dataset} selected={set} onSelect={onSelectSet} typeName={typeName} />
    </section>
  );
}
