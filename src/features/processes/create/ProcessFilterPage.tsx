/**
 * process-filter (api part 2 §2.3): the elements a new workers process will run on, counted,
 * with the filters that narrow them. Each change is saved on the process at once and the
 * list follows; "Configure workers" is the next step.
 */
import { useQuery } from '@tanstack/react-query';
import { corpusQuery } from '@/api/corpora';
import type { Process } from '@/api/processTypes';
import { ProcessElementsList } from './ProcessElementsList';
import { ProcessFiltersForm } from './ProcessFiltersForm';
import { FirstStepHeader } from './ProcessStepHeader';
import { ProcessStepLoader } from './ProcessStepLoader';

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
      <FirstStepHeader
        process={process}
        corpusName={process.corpus_name ?? corpus.data?.name}
        step="Step 1 of 2: choose the elements the workers will run on."
      />
      <ProcessFiltersForm process={process} types={types} />
      <ProcessElementsList process={process} typeName={typeName} />
    </div>
  );
}
