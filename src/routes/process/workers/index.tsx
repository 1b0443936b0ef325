import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { WorkersListPage } from '@/features/workers/WorkersListPage';
import {
  validateWorkerListSearch,
  workerListQueryOf,
  workerListSearchOf,
} from '@/features/workers/listSearch';

export const Route = createFileRoute('/process/workers/')({
  staticData: { name: 'workers-list' },
  validateSearch: validateWorkerListSearch,
  beforeLoad: requireAccess({ login: true }),
  component: WorkersRoute,
});

function WorkersRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <WorkersListPage
      query={workerListQueryOf(search)}
      onQueryChange={(query) => void navigate({ search: workerListSearchOf(query) })}
    />
  );
}
