/**
 * One dataset of the project in the datasets step: its name, state and description, and one
 * checkbox per set. Ticking a set chooses it for the process at once (CreateProcessSet),
 * unticking lets it go (DestroyProcessSet); the list of chosen sets follows the answer.
 */
import type { ReactNode } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Dataset, DatasetSet, DatasetState } from '@/api/datasets';
import { notifyError } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { plural, setSize } from './counts';
import { addProcessSet, processSetKeys, removeProcessSet, type ProcessSet } from './processSets';

export type RenderSetName = (dataset: Dataset, setName: string) => ReactNode;

const STATE_LABELS: Record<DatasetState, string> = {
  open: 'Open',
  building: 'Building',
  complete: 'Complete',
  error: 'Error',
};

export function DatasetSetsCard({
  processId,
  dataset,
  isChosen,
  blocked,
  renderSetName,
}: {
  processId: string;
  dataset: Dataset;
  isChosen: (setName: string) => boolean;
  /** Why sets cannot be changed now (rights, network), or null. */
  blocked: string | null;
  renderSetName?: RenderSetName | undefined;
}) {
  const headingId = `process-dataset-${dataset.id}`;
  const total = dataset.sets.reduce((sum, set) => sum + setSize(dataset, set.name), 0);
  return (
    <div role="group" aria-labelledby={headingId} className={`${ui.card} space-y-2`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="font-semibold text-slate-900">
          <Link to="/dataset/$datasetId" params={{ datasetId: dataset.id }} className={ui.link}>
            {dataset.name}
          </Link>
        </h3>
        <p className="text-sm text-slate-600">
          {STATE_LABELS[dataset.state]} · {plural(total, 'element')}
        </p>
      </div>
      {dataset.description && (
        <p className="line-clamp-2 text-sm text-slate-600">{dataset.description}</p>
      )}
      <ul className="flex flex-wrap gap-x-6 gap-y-2">
        {dataset.sets.map((set) => (
          <li key={set.id}>
            <SetToggle
              processId={processId}
              dataset={dataset}
              set={set}
              chosen={isChosen(set.name)}
              blocked={blocked}
              renderSetName={renderSetName}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

function SetToggle({
  processId,
  dataset,
  set,
  chosen,
  blocked,
  renderSetName,
}: {
  processId: string;
  dataset: Dataset;
  set: DatasetSet;
  chosen: boolean;
  blocked: string | null;
  renderSetName?: RenderSetName | undefined;
}) {
  const queryClient = useQueryClient();
  const key = processSetKeys.process(processId);
  const toggle = useMutation({
    mutationFn: async (on: boolean) => {
      if (on) return addProcessSet(processId, set.id);
      await removeProcessSet(processId, set.id);
      return null;
    },
    // The list follows the answer at once, so the box does not flick back while it is read again.
    onSuccess: (added, on) => {
      queryClient.setQueryData<ProcessSet[]>(key, (list = []) =>
        on && added
          ? [...list, added]
          : list.filter((item) => !(item.dataset.id === dataset.id && item.set_name === set.name)),
      );
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error) => {
      notifyError(error);
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const checked = toggle.isPending ? toggle.variables : chosen;
  return (
    <label
      className="flex cursor-pointer items-center gap-2 text-sm has-disabled:cursor-not-allowed"
      title={blocked ?? undefined}
    >
      <input
        type="checkbox"
        className={ui.checkbox}
        checked={checked}
        disabled={!!blocked || toggle.isPending}
        onChange={(event) => toggle.mutate(event.target.checked)}
      />
      {renderSetName ? renderSetName(dataset, set.name) : set.name}
      <span className="text-slate-500">{plural(setSize(dataset, set.name), 'element')}</span>
    </label>
  );
}
