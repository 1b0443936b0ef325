/**
 * process-datasets (spec 000 §2, api part 2 §5): the first step of a dataset process. The
 * project's datasets are listed with their sets; each set ticked is one the process' workers
 * will run on, saved at once. "Configure workers" is the next step, as from the filter step
 * of a workers process.
 */
import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import { storedCorpusDatasetsQuery } from '@/offline/datasetReads';
import { errorMessage } from '@/api/errors';
import type { Process } from '@/api/processTypes';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { useErrorNotification } from '@/components/notifications/useErrorNotification';
import { grantsRight, RIGHT_MESSAGES } from '@/lib/rights';
import { FirstStepHeader } from '@/features/processes/create/ProcessStepHeader';
import { ProcessStepLoader } from '@/features/processes/create/ProcessStepLoader';
import { plural, setSize } from './counts';
import { DatasetSetsCard, type RenderSetName } from './DatasetSetsCard';
import { processSetsQuery, type ProcessSet } from './processSets';

/** Spec 001 §8, the words the datasets menu uses too. */
export const NO_DATASET = 'No dataset available';
export const DATASETS_ERROR = 'An error occurred fetching datasets for this corpus.';

export interface ProcessDatasetsPageProps {
  processId: string;
  /** A set's name as the datasets feature shows it (its colour badge); the route composes it. */
  renderSetName?: RenderSetName;
}

export function ProcessDatasetsPage({ processId, renderSetName }: ProcessDatasetsPageProps) {
  return (
    <ProcessStepLoader processId={processId} step="Choose dataset sets">
      {(process) => <DatasetsView process={process} renderSetName={renderSetName} />}
    </ProcessStepLoader>
  );
}

function DatasetsView({
  process,
  renderSetName,
}: {
  process: Process;
  renderSetName?: RenderSetName | undefined;
}) {
  const corpusId = process.corpus ?? '';
  const corpus = useQuery({ ...corpusQuery(corpusId), enabled: !!process.corpus });
  const datasets = useQuery({ ...storedCorpusDatasetsQuery(corpusId), enabled: !!process.corpus });
  const chosen = useQuery(processSetsQuery(process.id));
  useErrorNotification(chosen.error);
  const offline = useNeedsNetwork();
  const notAdmin = corpus.data && !grantsRight(corpus.data.rights, 'admin');
  const blocked = offline ?? (notAdmin ? RIGHT_MESSAGES.admin : null);
  const chosenIds = new Set((chosen.data ?? []).map((item) => chosenKey(item)));

  return (
    <div className="mx-auto max-w-4xl space-y-4 p-6">
      <FirstStepHeader
        process={process}
        corpusName={process.corpus_name ?? corpus.data?.name}
        step="Step 1 of 2: choose the dataset sets the workers will run on."
      />
      {notAdmin && <p className="text-sm text-amber-800">{RIGHT_MESSAGES.admin}</p>}
      <ChosenSummary sets={chosen.data} error={chosen.error} />
      <section aria-labelledby="process-datasets" className="space-y-3">
        <h2 id="process-datasets" className="text-lg font-semibold text-slate-900">
          Datasets
        </h2>
        {datasets.isPending || chosen.isPending ? (
          <p role="status" className="text-slate-600">
            Loading…
          </p>
        ) : datasets.isError ? (
          <p className="text-red-700">{DATASETS_ERROR}</p>
        ) : datasets.data.length === 0 ? (
          <p className="text-slate-600">{NO_DATASET}</p>
        ) : (
          <ul className="space-y-3">
            {datasets.data.map((dataset) => (
              <li key={dataset.id}>
                <DatasetSetsCard
                  processId={process.id}
                  dataset={dataset}
                  isChosen={(setName) => chosenIds.has(`${dataset.id}/${setName}`)}
                  blocked={blocked}
                  renderSetName={renderSetName}
                />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function chosenKey(item: ProcessSet): string {
  return `${item.dataset.id}/${item.set_name}`;
}

/**
 * How many sets are chosen and how many elements they hold, from the sets' counts: an element
 * in two chosen sets is counted twice here, though its tasks run on it once.
 */
function ChosenSummary({ sets, error }: { sets: ProcessSet[] | undefined; error: Error | null }) {
  if (error) {
    return (
      <p className="text-red-700">The chosen sets could not be loaded: {errorMessage(error)}</p>
    );
  }
  if (!sets) return null;
  if (sets.length === 0) {
    return (
      <p className="text-slate-700" data-testid="chosen-summary">
        No set chosen yet: choose at least one before starting the process.
      </p>
    );
  }
  const elements = sets.reduce((sum, item) => sum + setSize(item.dataset, item.set_name), 0);
  return (
    <p className="text-slate-700" data-testid="chosen-summary">
      {plural(sets.length, 'set')} chosen, {plural(elements, 'element')} in them (counted per set:
      an element in two sets runs once).
    </p>
  );
}
