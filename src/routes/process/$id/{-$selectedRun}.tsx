import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ProcessDetailsPage } from '@/features/processes/ProcessDetailsPage';
import { WorkerRunModal } from '@/features/workers/WorkerRunModal';

/** selectedRun is numeric; anything invalid, or below -1, becomes -1 (spec 000 §2). */
export function parseSelectedRun(value: unknown): number {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) return -1;
  const run = Number(value);
  return run < -1 ? -1 : run;
}

export const Route = createFileRoute('/process/$id/{-$selectedRun}')({
  staticData: { name: 'process-details' },
  beforeLoad: (ctx) => requireAccess({ login: true, uuidParams: ['id'] })(ctx),
  component: ProcessDetailsRoute,
});

function ProcessDetailsRoute() {
  const { id, selectedRun } = Route.useParams();
  return (
    <ProcessDetailsPage
      id={id}
      selectedRun={parseSelectedRun(selectedRun)}
      workerRunModal={(runId, onClose) => <WorkerRunModal id={runId} onClose={onClose} />}
    />
  );
}
