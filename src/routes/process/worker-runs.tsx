import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { WorkerRunsPage } from '@/features/workers/WorkerRunsPage';

export const Route = createFileRoute('/process/worker-runs')({
  staticData: { name: 'worker-runs' },
  beforeLoad: requireAccess({ login: true }),
  component: WorkerRunsPage,
});
