/**
 * Reading the server's decimal strings for display and for bars: cents as integers, so that
 * a ratio or a sum never picks up a float's error.
 */

/** "12.50" → 1250. */
export function cents(value: string): number {
  const negative = value.trim().startsWith('-');
  const [units = '0', decimals = ''] = value.trim().replace(/^-/, '').split('.');
  const total = Number(units) * 100 + Number(decimals.padEnd(2, '0').slice(0, 2));
  return negative ? -total : total;
}

/** "1500.50", "EUR" → "1,500.50 EUR", grouped the user's way, the code as the server has it. */
export function formatAmount(value: string, currency: string): string {
  const amount = cents(value) / 100;
  const text = amount.toLocaleString(undefined, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `${text} ${currency}`;
}

/** The share of the amount spent, from 0 (with nothing to spend, a spent budget is full). */
export function spentShare(spent: string, amount: string): number {
  const total = cents(amount);
  if (total <= 0) return 1;
  return Math.max(0, cents(spent) / total);
}

/** A typed amount the server will take: digits with at most 2 decimals. */
export function amountProblem(value: string): string | null {
  const typed = value.trim();
  if (!typed) return 'An amount is required.';
  if (!/^\d+(\.\d{0,2})?$/.test(typed)) return 'Enter an amount such as 1500 or 1500.50.';
  return null;
}
