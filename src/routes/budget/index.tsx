import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { BudgetsListPage } from '@/features/budgets/BudgetsListPage';

/** `?page=2`; anything else there is the first page. */
function validateSearch(raw: Record<string, unknown>): { page?: number } {
  const page = Number(raw.page);
  return Number.isInteger(page) && page > 1 ? { page } : {};
}

export const Route = createFileRoute('/budget/')({
  staticData: { name: 'budget-list' },
  validateSearch,
  beforeLoad: requireAccess({ feature: 'enterprise', login: true }),
  component: BudgetListRoute,
});

function BudgetListRoute() {
  const { page = 1 } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <BudgetsListPage
      page={page}
      onPageChange={(next) => void navigate({ search: next > 1 ? { page: next } : {} })}
    />
  );
}
