import type { ReactNode } from 'react';
import { Link } from '@tanstack/react-router';

const tab =
  'rounded-md px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 data-[status=active]:bg-brand-50 data-[status=active]:text-brand-900';

/** The site administration's frame: its title and the Users and Projects tabs. */
export function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <section className="mx-auto max-w-5xl space-y-6 p-6" aria-labelledby="admin-heading">
      <header className="space-y-3">
        <h1 id="admin-heading" className="text-2xl font-semibold text-brand-900">
          Administration
        </h1>
        <nav aria-label="Administration" className="flex gap-2 border-b border-slate-200 pb-2">
          <Link to="/admin/" activeOptions={{ exact: true }} className={tab}>
            Users
          </Link>
          <Link to="/admin/projects/" activeOptions={{ exact: false }} className={tab}>
            Projects
          </Link>
        </nav>
      </header>
      {children}
    </section>
  );
}
