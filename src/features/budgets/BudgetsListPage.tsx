import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import { BUDGETS_PAGE_SIZE, budgetListQuery } from '@/api/budgets';
import { GuardedButton } from '@/components/GuardedButton';
import { ListTable } from '@/components/ListTable';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PagedListState } from '@/components/PagedListState';
import { PaginationBar } from '@/components/PaginationBar';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { BudgetFormModal } from './BudgetFormModal';
import { SpentBar } from './SpentBar';
import { formatAmount } from './money';
import { useSiteAdmin } from './useSiteAdmin';

/**
 * The budget-list screen (enterprise): every budget with what is spent and what remains, as
 * figures and a bar. Site admins add budgets here.
 */
export function BudgetsListPage({
  page,
  onPageChange,
}: {
  page: number;
  onPageChange: (page: number) => void;
}) {
  const budgets = useQuery(budgetListQuery(page));
  const offline = useNeedsNetwork();
  const siteAdmin = useSiteAdmin();
  const [adding, setAdding] = useState(false);

  return (
    <section aria-labelledby="budgets-heading" className="mx-auto max-w-5xl space-y-4 p-6">
      <header className="flex flex-wrap items-center justify-between gap-4">
        <h1 id="budgets-heading" className="text-2xl font-semibold text-brand-900">
          Budgets
        </h1>
        {siteAdmin && (
          <GuardedButton
            blocked={offline}
            className={ui.primaryButton}
            onClick={() => setAdding(true)}
          >
            Add a budget
          </GuardedButton>
        )}
      </header>
      <p className="text-sm text-slate-600">
        Each finished task of a process attached to a budget is charged to it, at its farm&apos;s
        hourly rate. A process whose budget is spent cannot be started.
      </p>
      <PagedListState
        query={budgets}
        failedRole="alert"
        failed={(error) => `The budgets could not be loaded: ${errorMessage(error)}`}
        empty="There are no budgets yet."
      >
        {(list) => (
          <>
            <ListTable
              caption="Budgets"
              columns={['Name', 'Amount', 'Spent', 'Remaining']}
              last="Spent share"
            >
              {list.results.map((budget) => (
                <tr key={budget.id}>
                  <td className="py-2 pr-4">
                    <Link
                      to="/budget/$budgetId"
                      params={{ budgetId: budget.id }}
                      className={ui.link}
                    >
                      {budget.name}
                    </Link>
                  </td>
                  <td className="py-2 pr-4 whitespace-nowrap tabular-nums">
                    {formatAmount(budget.amount, budget.currency)}
                  </td>
                  <td className="py-2 pr-4 whitespace-nowrap tabular-nums">
                    {formatAmount(budget.spent, budget.currency)}
                  </td>
                  <td
                    className={`py-2 pr-4 whitespace-nowrap tabular-nums ${budget.remaining.startsWith('-') ? 'text-red-700' : ''}`}
                  >
                    {formatAmount(budget.remaining, budget.currency)}
                  </td>
                  <td className="w-48 py-2">
                    <SpentBar budget={budget} size="sm" />
                  </td>
                </tr>
              ))}
            </ListTable>
            <PaginationBar
              count={list.count}
              page={page}
              pageSize={BUDGETS_PAGE_SIZE}
              singular="budget"
              label="Budgets pages"
              onPageChange={onPageChange}
            />
          </>
        )}
      </PagedListState>
      {adding && (
        <BudgetFormModal
          onClose={() => setAdding(false)}
          onSaved={(budget) => {
            setAdding(false);
            notify({ type: 'success', text: `The budget ${budget.name} was added.` });
          }}
        />
      )}
    </section>
  );
}
