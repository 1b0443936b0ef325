import type { ReactNode } from 'react';

export interface PageMessageProps {
  /** The page's own width, so the message sits where its content would. */
  width: 'max-w-3xl' | 'max-w-4xl';
  /** Announced as a status while the page's data loads. */
  loading?: boolean;
  children: ReactNode;
}

/** What a page shows in place of its content: that it loads, or that it could not be loaded. */
export function PageMessage({ width, loading = false, children }: PageMessageProps) {
  return (
    <section className={`mx-auto ${width} p-6`}>
      <p className="text-slate-600" role={loading ? 'status' : undefined}>
        {children}
      </p>
    </section>
  );
}
