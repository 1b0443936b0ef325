import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { RoutePlaceholder } from '@/components/RoutePlaceholder';

/** selectedRun is numeric; anything invalid, or below -1, becomes -1 (spec 000 §2). */
export function parseSelectedRun(value: unknown): number {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) return -1;
  const run = Number(value);
  return run < -1 ? -1 : run;
}

export const Route = createFileRoute('/process/$id/{-$selectedRun}')({
  staticData: { name: 'process-details' },
  beforeLoad: requireAccess({ login: true, uuidParams: ['id'] }),
  component: ProcessDetailsRoute,
});

function ProcessDetailsRoute() {
  const { selectedRun } = Route.useParams();
  return (
    <div data-selected-run={parseSelectedRun(selectedRun)}>
      <RoutePlaceholder name="process-details" />
    </div>
  );
}
