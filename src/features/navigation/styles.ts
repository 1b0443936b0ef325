/** The control styles of the navigation screens, so fields and buttons read alike. */
const button =
  'inline-flex items-center justify-center gap-1 rounded-md px-3 py-1.5 text-sm font-medium shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50';

const field =
  'rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none';

export const ui = {
  primaryButton: `${button} bg-brand-600 text-white hover:bg-brand-700 focus-visible:outline-brand-600`,
  secondaryButton: `${button} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 focus-visible:outline-brand-500`,
  dangerOutlineButton: `${button} border border-red-300 bg-white text-red-700 hover:bg-red-50 focus-visible:outline-red-600`,
  label: 'block text-xs font-medium tracking-wide text-slate-600 uppercase',
  select: `${field} pr-8`,
  input: `${field} min-w-0`,
  panel: 'rounded-lg border border-slate-200 bg-slate-50/60 p-3',
};
