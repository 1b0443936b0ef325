import { createFileRoute } from '@tanstack/react-router';
import { ProjectsAdminPage } from '@/features/admin/ProjectsAdminPage';
import { listQuery, validateListSearch } from '@/features/admin/listSearch';

export const Route = createFileRoute('/admin/projects/')({
  validateSearch: validateListSearch,
  component: AdminProjectsRoute,
});

function AdminProjectsRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ProjectsAdminPage
      query={listQuery(search)}
      onQueryChange={(query) => void navigate({ search: validateListSearch(query) })}
    />
  );
}
