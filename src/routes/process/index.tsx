import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ProcessesListPage } from '@/features/processes/ProcessesListPage';
import {
  processListQueryOf,
  processListSearchOf,
  validateProcessListSearch,
} from '@/features/processes/listSearch';

export const Route = createFileRoute('/process/')({
  staticData: { name: 'processes-list' },
  validateSearch: validateProcessListSearch,
  beforeLoad: requireAccess({ login: true }),
  component: ProcessesRoute,
});

function ProcessesRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ProcessesListPage
      query={processListQueryOf(search)}
      onQueryChange={(query) => void navigate({ search: processListSearchOf(query) })}
    />
  );
}
