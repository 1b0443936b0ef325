import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { SecretsListPage } from '@/features/secrets/SecretsListPage';

/** `?page=2`; anything else there is the first page. */
function validateSearch(raw: Record<string, unknown>): { page?: number } {
  const page = Number(raw.page);
  return Number.isInteger(page) && page > 1 ? { page } : {};
}

export const Route = createFileRoute('/secret/')({
  staticData: { name: 'secret-list' },
  validateSearch,
  beforeLoad: requireAccess({ feature: 'enterprise', login: true }),
  component: SecretListRoute,
});

function SecretListRoute() {
  const { page = 1 } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <SecretsListPage
      page={page}
      onPageChange={(next) => void navigate({ search: next > 1 ? { page: next } : {} })}
    />
  );
}
