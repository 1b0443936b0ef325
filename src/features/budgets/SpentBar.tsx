import type { Budget } from '@/api/budgets';
import { ProgressBar } from '@/components/ProgressBar';
import { formatAmount, spentShare } from './money';

/** How much of a budget is spent, as a labelled bar; red once it is all spent. */
export function SpentBar({ budget, size = 'md' }: { budget: Budget; size?: 'sm' | 'md' }) {
  const share = spentShare(budget.spent, budget.amount);
  return (
    <ProgressBar
      label={`${budget.name}: ${formatAmount(budget.spent, budget.currency)} spent of ${formatAmount(budget.amount, budget.currency)}`}
      value={Math.min(1, share)}
      tone={share >= 1 ? 'error' : 'brand'}
      size={size}
    />
  );
}
