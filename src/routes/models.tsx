import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ModelsListPage } from '@/features/models/ModelsListPage';
import {
  modelListQueryOf,
  modelListSearchOf,
  validateModelListSearch,
} from '@/features/models/listSearch';

export const Route = createFileRoute('/models')({
  staticData: { name: 'models-list' },
  validateSearch: validateModelListSearch,
  beforeLoad: requireAccess({ login: true }),
  component: ModelsRoute,
});

function ModelsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ModelsListPage
      query={modelListQueryOf(search)}
      onQueryChange={(query) => void navigate({ search: modelListSearchOf(query) })}
    />
  );
}
