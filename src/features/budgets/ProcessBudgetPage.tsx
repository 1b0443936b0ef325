import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { corpusQuery } from '@/api/corpora';
import { errorMessage } from '@/api/errors';
import { budgetListQuery, processBudgetQuery, type Budget } from '@/api/budgets';
import { currentUserQuery } from '@/api/user';
import { GuardedButton } from '@/components/GuardedButton';
import { useNeedsNetwork } from '@/components/NeedsNetwork';
import { PageMessage } from '@/components/PageMessage';
import { ErrorList } from '@/components/modal/ErrorList';
import { notify } from '@/components/notifications/store';
import { ui } from '@/components/styles';
import { grantsRight } from '@/lib/rights';
import { useSetProcessBudget } from './api';
import { SpentBar } from './SpentBar';
import { formatAmount } from './money';

/** Every budget a process may be charged to, in one read (the server's largest page). */
const ALL_BUDGETS = 1000;

/** Admins of the process' project (or site admins) choose its budget; others read it. */
function useProcessAdmin(corpusId: string | null | undefined): boolean {
  const user = useQuery(currentUserQuery).data ?? null;
  const corpus = useQuery({
    ...corpusQuery(corpusId ?? ''),
    enabled: !!corpusId && !user?.is_admin,
  });
  if (user?.is_admin) return true;
  return !!corpus.data && grantsRight(corpus.data.rights, 'admin');
}

/**
 * The process-budget screen (enterprise): the budget a process' finished tasks are charged to,
 * and a choice to attach, change or detach it.
 */
export function ProcessBudgetPage({ processId }: { processId: string }) {
  const process = useQuery(processBudgetQuery(processId));
  const budgets = useQuery(budgetListQuery(1, ALL_BUDGETS));
  const admin = useProcessAdmin(process.data?.corpus);

  if (process.isPending || budgets.isPending) {
    return (
      <PageMessage width="max-w-3xl" loading>
        Loading the process&apos; budget…
      </PageMessage>
    );
  }
  if (process.isError || budgets.isError) {
    return (
      <PageMessage width="max-w-3xl">
        The process&apos; budget could not be loaded: {errorMessage(process.error ?? budgets.error)}
      </PageMessage>
    );
  }
  const current = budgets.data.results.find((budget) => budget.id === process.data.budget_id);
  const name = process.data.name ?? process.data.id;
  return (
    <section aria-labelledby="process-budget-heading" className="mx-auto max-w-3xl space-y-5 p-6">
      <header className="space-y-2">
        <Link
          to="/process/$id/{-$selectedRun}"
          params={{ id: processId }}
          className={`${ui.link} text-sm`}
        >
          ‹ {name}
        </Link>
        <h1 id="process-budget-heading" className="text-2xl font-semibold text-brand-900">
          Budget of {name}
        </h1>
        <p className="text-sm text-slate-600">
          Each task of this process that finishes is charged to its budget at its farm&apos;s hourly
          rate. The process cannot be started or retried once its budget is spent.
        </p>
      </header>
      <CurrentBudget budget={current} />
      {admin && (
        <BudgetChoice
          key={process.data.budget_id ?? 'none'}
          processId={processId}
          budgets={budgets.data.results}
          currentId={current?.id ?? null}
        />
      )}
    </section>
  );
}

function CurrentBudget({ budget }: { budget: Budget | undefined }) {
  if (!budget) return <p className="text-slate-700">This process has no budget.</p>;
  return (
    <div className={`${ui.card} space-y-2`}>
      <p>
        Charged to{' '}
        <Link to="/budget/$budgetId" params={{ budgetId: budget.id }} className={ui.link}>
          {budget.name}
        </Link>
        : {formatAmount(budget.spent, budget.currency)} spent of{' '}
        {formatAmount(budget.amount, budget.currency)},{' '}
        {formatAmount(budget.remaining, budget.currency)} remaining.
      </p>
      <SpentBar budget={budget} />
    </div>
  );
}

function BudgetChoice({
  processId,
  budgets,
  currentId,
}: {
  processId: string;
  budgets: Budget[];
  currentId: string | null;
}) {
  const id = useId();
  const [chosen, setChosen] = useState(currentId ?? '');
  const save = useSetProcessBudget(processId);
  const offline = useNeedsNetwork();
  const unchanged = (chosen || null) === currentId;
  return (
    <form
      className="space-y-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (offline || unchanged) return;
        save.mutate(chosen || null, {
          onSuccess: () =>
            notify({
              type: 'success',
              text: chosen
                ? 'The budget of this process was saved.'
                : 'This process has no budget now.',
            }),
        });
      }}
    >
      <div>
        <label htmlFor={`${id}-budget`} className={ui.label}>
          Budget
        </label>
        <select
          id={`${id}-budget`}
          value={chosen}
          onChange={(event) => setChosen(event.target.value)}
          className={ui.input}
        >
          <option value="">No budget</option>
          {budgets.map((budget) => (
            <option key={budget.id} value={budget.id}>
              {budget.name} ({formatAmount(budget.remaining, budget.currency)} remaining)
            </option>
          ))}
        </select>
      </div>
      <ErrorList messages={save.error ? [errorMessage(save.error)] : []} />
      <GuardedButton
        type="submit"
        blocked={offline ?? (unchanged ? 'Choose another budget first.' : null)}
        className={ui.primaryButton}
      >
        {save.isPending ? 'Please wait…' : 'Save'}
      </GuardedButton>
    </form>
  );
}
