import type { ReactNode } from 'react';

/** One section of the element details panel: a heading, its actions, its body. */
export function PanelSection({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-label={title} className="flex flex-col gap-2 border-b border-slate-200 pb-3">
      <div className="flex items-center justify-between gap-2">
        <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
        {actions}
      </div>
      {children}
    </section>
  );
}
