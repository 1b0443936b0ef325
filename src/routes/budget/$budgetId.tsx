import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { BudgetPage } from '@/features/budgets/BudgetPage';

export const Route = createFileRoute('/budget/$budgetId')({
  staticData: { name: 'budget-details' },
  beforeLoad: (ctx) =>
    requireAccess({ feature: 'enterprise', login: true, uuidParams: ['budgetId'] })(ctx),
  component: BudgetDetailsRoute,
});

function BudgetDetailsRoute() {
  const { budgetId } = Route.useParams();
  return <BudgetPage key={budgetId} budgetId={budgetId} />;
}
