import { ui as shared } from '@/components/styles';

const field =
  'rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none';

/** The navigation screens' compact fields, beside the buttons every screen shares. */
export const ui = {
  ...shared,
  label: 'block text-xs font-medium tracking-wide text-slate-600 uppercase',
  select: `${field} pr-8`,
  input: `${field} min-w-0`,
  panel: 'rounded-lg border border-slate-200 bg-slate-50/60 p-3',
};
