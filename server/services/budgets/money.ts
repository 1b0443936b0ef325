/**
 * Money as budgets keep it: integer hundredths of the currency's unit, so sums are exact in
 * both dialects. The API reads and writes decimal strings ("100.00"), as DRF's DecimalField
 * does. Every currency gets two decimal places; that is the precision budgets need, even for
 * the few ISO 4217 currencies with none or three.
 */
import type { ErrorItem } from '../../errors';

/** Far below 2^53 hundredths, so a sum of many entries stays an exact JavaScript number. */
export const MONEY_MAX_DIGITS = 13;

export const MONEY_MESSAGES = {
  invalid: 'A valid number is required.',
  negative: 'Ensure this value is greater than or equal to 0.',
  places: 'Ensure that there are no more than 2 decimal places.',
  digits: `Ensure that there are no more than ${MONEY_MAX_DIGITS} digits before the decimal point.`,
} as const;

/** `"12.5"` or `12.5` as 1250 hundredths, or the problem with it (for field `attr`). */
export function parseMoney(value: unknown, attr: string): number | ErrorItem {
  const problem = (detail: string): ErrorItem => ({ code: 'invalid', detail, attr });
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return problem(MONEY_MESSAGES.invalid);
  const match = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (!match) return problem(MONEY_MESSAGES.invalid);
  const [, sign, units = '', decimals = ''] = match;
  if (sign) return problem(MONEY_MESSAGES.negative);
  if (decimals.replace(/0+$/, '').length > 2) return problem(MONEY_MESSAGES.places);
  if (units.replace(/^0+/, '').length > MONEY_MAX_DIGITS) return problem(MONEY_MESSAGES.digits);
  return Number(units) * 100 + Number(decimals.slice(0, 2).padEnd(2, '0'));
}

/** 1250 → "12.50"; bigint columns come back from PostgreSQL as strings. */
export function formatMoney(hundredths: number | string | bigint): string {
  const value = Number(hundredths);
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const CURRENCY_INVALID = 'Enter an ISO 4217 currency code, such as EUR or USD.';

/** An ISO 4217 code the runtime knows, upper-cased; null when it is none. */
export function parseCurrency(value: string): string | null {
  const code = value.trim().toUpperCase();
  return /^[A-Z]{3}$/.test(code) && CURRENCIES.has(code) ? code : null;
}
