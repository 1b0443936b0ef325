import { createFileRoute } from '@tanstack/react-router';
import { requireAccess } from '@/app/guard';
import { ProcessBudgetPage } from '@/features/budgets/ProcessBudgetPage';

export const Route = createFileRoute('/process/$id/budget')({
  staticData: { name: 'process-budget' },
  beforeLoad: (ctx) =>
    requireAccess({ feature: 'enterprise', login: true, uuidParams: ['id'] })(ctx),
  component: ProcessBudgetRoute,
});

function ProcessBudgetRoute() {
  const { id } = Route.useParams();
  return <ProcessBudgetPage key={id} processId={id} />;
}
