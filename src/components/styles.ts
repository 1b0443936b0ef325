/** The controls the screens and their modals share, so every button and field reads alike. */
const button =
  'inline-flex items-center justify-center gap-1 rounded-md px-3 py-1.5 text-sm font-medium shadow-sm focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:cursor-not-allowed aria-disabled:opacity-50';

export const ui = {
  primaryButton: `${button} bg-brand-600 text-white hover:bg-brand-700 focus-visible:outline-brand-600`,
  secondaryButton: `${button} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 focus-visible:outline-brand-500`,
  dangerButton: `${button} bg-red-600 text-white hover:bg-red-700 focus-visible:outline-red-600`,
  dangerOutlineButton: `${button} border border-red-300 bg-white text-red-700 hover:bg-red-50 focus-visible:outline-red-600`,
  label: 'block text-sm font-medium text-slate-700',
  input:
    'mt-1 block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none aria-[invalid=true]:border-red-400',
  checkbox: 'size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500',
  fieldError: 'mt-1 text-sm text-red-700',
  help: 'mt-1 text-sm text-slate-500',
  card: 'rounded-lg border border-slate-200 bg-white p-4 shadow-sm',
  link: 'font-medium text-brand-600 underline-offset-2 hover:underline focus-visible:underline',
};
