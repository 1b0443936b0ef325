/**
 * process-filter (api part 2 §2.3): the elements a new workers process will run on, counted,
 * with the filters that narrow them. Each change is saved on the process at once and the
 * list follows; "Configure workers" is the next step.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { corpusQuery } from '@/api/corpora';
import type { Process } from '@/api/processTypes';
import { ui } from '@/components/styles';
import { ProcessElementsList } from './ProcessElementsList';
import { ProcessFiltersForm } from './ProcessFiltersForm';
import { ProcessStepHeader } from './ProcessStepHeader';
import { ProcessStepLoader } from './ProcessStepLoader';
import { StartedRedirect } from './StartedRedirect';

export function ProcessFilterPage({ processId }: { processId: string }) {
  return (
    <ProcessStepLoader processId={processId} step="Filter elements">
      {(process) => <FilterView process={process} />}
    </ProcessStepLoader>
  );
}

function FilterView({ process }: { process: Process }) {
  const corpus = useQuery({ ...corpusQuery(process.corpus ?? ''), enabled: !!process.corpus });
  const types = corpus.data?.types ?? [];
  const typeName = (slug: string) => types.find((type) => type.slug === slug)?.display_name ?? slug;
  return (
    <div className="mx-auto max-w-6xl space-y-4 p-6">
      <StartedRedirect process={process} />
      <ProcessStepHeader
        process={process}
        corpusName={process.corpus_name ?? corpus.data?.name}
        step="Step 1 of 2: choose the elements the workers will run on."
        action={
          <Link
            to="/process/$id/configure"
            params={{ id: process.id }}
            className={ui.primaryButton}
          >
            Configure workers
          </Link>
        }
      />
      <ProcessFiltersForm process={process} types={types} />
      <ProcessElementsList process={process} typeName={typeName} />
    </div>
  );
}
