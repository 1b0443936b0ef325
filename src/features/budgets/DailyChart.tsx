import type { BudgetSummary } from '@/api/budgets';
import { cents, formatAmount } from './money';

/**
 * What a budget spent each day, as bars drawn in plain boxes. The bars are hidden from screen
 * readers, which read the same figures in the table that follows them.
 */
export function DailyChart({ days, currency }: { days: BudgetSummary['days']; currency: string }) {
  const largest = Math.max(1, ...days.map((day) => cents(day.total)));
  return (
    <div className="space-y-3">
      <div
        aria-hidden="true"
        data-testid="daily-chart"
        className="flex h-40 items-end justify-center gap-1 overflow-x-auto rounded border border-slate-200 bg-white p-2"
      >
        {days.map((day) => (
          <div
            key={day.day}
            className="flex h-full max-w-16 min-w-8 flex-1 flex-col items-center justify-end gap-1"
            title={`${day.day}: ${formatAmount(day.total, currency)}`}
          >
            <div
              className="w-full rounded-t bg-brand-600"
              style={{ height: `${Math.max(2, (cents(day.total) / largest) * 100)}%` }}
            />
            <span className="text-[10px] text-slate-500">{day.day.slice(5)}</span>
          </div>
        ))}
      </div>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Spent per day</caption>
        <thead className="text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-4 font-medium">
              Day
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Tasks
            </th>
            <th scope="col" className="py-1 font-medium">
              Spent
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {days.map((day) => (
            <tr key={day.day}>
              <td className="py-1 pr-4">{day.day}</td>
              <td className="py-1 pr-4 tabular-nums">{day.tasks}</td>
              <td className="py-1 tabular-nums">{formatAmount(day.total, currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
