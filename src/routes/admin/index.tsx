import { createFileRoute } from '@tanstack/react-router';
import { UsersAdminPage } from '@/features/admin/UsersAdminPage';
import { listQuery, validateListSearch } from '@/features/admin/listSearch';

export const Route = createFileRoute('/admin/')({
  validateSearch: validateListSearch,
  component: AdminUsersRoute,
});

function AdminUsersRoute() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <UsersAdminPage
      query={listQuery(search)}
      onQueryChange={(query) => void navigate({ search: validateListSearch(query) })}
    />
  );
}
