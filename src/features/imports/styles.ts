import { ui as shared } from '@/components/styles';

/** The import screen's own controls, beside the ones every screen shares. */
export const ui = {
  ...shared,
  smallButton:
    'rounded px-2 py-0.5 text-xs font-medium text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-500 disabled:cursor-not-allowed disabled:opacity-50',
  // Greyed out while imports are blocked; its errors are said in the text below it.
  input:
    'mt-1 block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-100 focus:outline-none disabled:bg-slate-50',
  error: 'text-sm text-red-700',
};
