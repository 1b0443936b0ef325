import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { errorMessage } from '@/api/errors';
import {
  BUDGET_ENTRIES_PAGE_SIZE,
  budgetEntriesQuery,
  budgetQuery,
  budgetSummaryQuery,
  type Budget,
} from '@/api/budgets';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PageMessage } from '@/components/PageMessage';
import { PaginationBar } from '@/components/PaginationBar';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { BudgetFormModal } from './BudgetFormModal';
import { DailyChart } from './DailyChart';
import { DeleteBudgetDialog } from './DeleteBudgetDialog';
import { SpentBar } from './SpentBar';
import { formatAmount } from './money';
import { useSiteAdmin } from './useSiteAdmin';

/**
 * The budget-details screen (enterprise): a budget's figures, what each process and each day
 * spent, and its entries, newest first. Site admins edit and delete it here.
 */
export function BudgetPage({ budgetId }: { budgetId: string }) {
  const budget = useQuery(budgetQuery(budgetId));
  const siteAdmin = useSiteAdmin();
  const offline = useNeedsNetwork();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (budget.isPending) {
    return (
      <PageMessage width="max-w-4xl" loading>
        Loading the budget…
      </PageMessage>
    );
  }
  if (budget.isError) {
    return (
      <PageMessage width="max-w-4xl">
        The budget could not be loaded: {errorMessage(budget.error)}
      </PageMessage>
    );
  }
  const data = budget.data;
  return (
    <section aria-labelledby="budget-heading" className="mx-auto max-w-4xl space-y-6 p-6">
      <header className="space-y-3">
        <Link to="/budget/" search={{}} className={`${ui.link} text-sm`}>
          ‹ Budgets
        </Link>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 id="budget-heading" className="text-2xl font-semibold text-brand-900">
            {data.name}
          </h1>
          {siteAdmin && (
            <div className="flex gap-2">
              <GuardedButton
                blocked={offline}
                className={ui.secondaryButton}
                onClick={() => setEditing(true)}
              >
                Edit
              </GuardedButton>
              <GuardedButton
                blocked={offline}
                className={ui.dangerOutlineButton}
                onClick={() => setDeleting(true)}
              >
                Delete
              </GuardedButton>
            </div>
          )}
        </div>
        <Figures budget={data} />
        <SpentBar budget={data} />
      </header>
      <BudgetBreakdown budget={data} />
      <BudgetEntries budget={data} />
      {editing && (
        <BudgetFormModal
          budget={data}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            setEditing(false);
            notify({ type: 'success', text: `The budget ${saved.name} was saved.` });
          }}
        />
      )}
      {deleting && (
        <DeleteBudgetDialog
          budget={data}
          onClose={() => setDeleting(false)}
          onDeleted={() => void navigate({ to: '/budget/', search: {} })}
        />
      )}
    </section>
  );
}

function Figures({ budget }: { budget: Budget }) {
  const figures: [string, string][] = [
    ['Amount', formatAmount(budget.amount, budget.currency)],
    ['Spent', formatAmount(budget.spent, budget.currency)],
    ['Remaining', formatAmount(budget.remaining, budget.currency)],
    ['Currency', budget.currency],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {figures.map(([term, value]) => (
        <div key={term} className={ui.card}>
          <dt className="text-xs text-slate-500">{term}</dt>
          {/* Below zero once tasks overran the budget: shown as an overrun, not hidden. */}
          <dd
            className={`text-lg font-semibold tabular-nums ${value.startsWith('-') ? 'text-red-700' : 'text-slate-900'}`}
          >
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Totals per process and per day, from the budget's summary. */
function BudgetBreakdown({ budget }: { budget: Budget }) {
  const summary = useQuery(budgetSummaryQuery(budget.id));
  if (summary.isPending) return <p role="status">Loading what was spent…</p>;
  if (summary.isError) {
    return <p role="alert">What was spent could not be loaded: {errorMessage(summary.error)}</p>;
  }
  const { processes, days } = summary.data;
  if (processes.length === 0) {
    return <p className="text-sm text-slate-600">Nothing has been charged to this budget yet.</p>;
  }
  return (
    <>
      <section aria-labelledby="per-process-heading" className="space-y-2">
        <h2 id="per-process-heading" className="text-lg font-semibold text-slate-900">
          Per process
        </h2>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Spent per process</caption>
          <thead className="text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-4 font-medium">
                Process
              </th>
              <th scope="col" className="py-1 pr-4 font-medium">
                Tasks
              </th>
              <th scope="col" className="py-1 font-medium">
                Total
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {processes.map((row) => (
              <tr key={row.process?.id ?? 'deleted'}>
                <td className="py-1 pr-4">
                  {row.process ? (
                    <Link
                      to="/process/$id/{-$selectedRun}"
                      params={{ id: row.process.id }}
                      className={ui.link}
                    >
                      {row.process.name ?? row.process.id}
                    </Link>
                  ) : (
                    <span className="text-slate-500">Deleted processes</span>
                  )}
                </td>
                <td className="py-1 pr-4 tabular-nums">{row.tasks}</td>
                <td className="py-1 tabular-nums">{formatAmount(row.total, budget.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="per-day-heading" className="space-y-2">
        <h2 id="per-day-heading" className="text-lg font-semibold text-slate-900">
          Per day
        </h2>
        <DailyChart days={days} currency={budget.currency} />
      </section>
    </>
  );
}

function BudgetEntries({ budget }: { budget: Budget }) {
  const [page, setPage] = useState(1);
  const entries = useQuery(budgetEntriesQuery(budget.id, page));
  if (!entries.data?.count) return null;
  return (
    <section aria-labelledby="entries-heading" className="space-y-2">
      <h2 id="entries-heading" className="text-lg font-semibold text-slate-900">
        Entries
      </h2>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Entries</caption>
        <thead className="text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-4 font-medium">
              Finished
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Process
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Description
            </th>
            <th scope="col" className="py-1 font-medium">
              Value
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {entries.data.results.map((entry) => (
            <tr key={entry.id}>
              <td className="py-1 pr-4 whitespace-nowrap">
                {new Date(entry.created).toLocaleString()}
              </td>
              <td className="py-1 pr-4">{entry.process?.name ?? '—'}</td>
              <td className="py-1 pr-4">{entry.description}</td>
              <td className="py-1 whitespace-nowrap tabular-nums">
                {formatAmount(entry.value, budget.currency)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <PaginationBar
        count={entries.data.count}
        page={page}
        pageSize={BUDGET_ENTRIES_PAGE_SIZE}
        singular="entry"
        plural="entries"
        label="Entries pages"
        onPageChange={setPage}
      />
    </section>
  );
}
