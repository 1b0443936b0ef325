import type { ReactNode } from 'react';

/**
 * The head of the settings screens' tables (members, users, projects, allowed metadata): named
 * columns, then a last one for the row's buttons or links, named for screen readers only.
 */
function ListTableHead({ columns, last }: { columns: string[]; last: string }) {
  return (
    <thead className="text-slate-500">
      <tr>
        {columns.map((column) => (
          <th key={column} scope="col" className="py-2 pr-4 font-medium">
            {column}
          </th>
        ))}
        <th scope="col" className="py-2 font-medium">
          <span className="sr-only">{last}</span>
        </th>
      </tr>
    </thead>
  );
}

export interface ListTableProps {
  /** Names the table for screen readers. */
  caption: ReactNode;
  columns: string[];
  last: string;
  /** Classes of the scrolling box around the table (spacing). */
  className?: string;
  children: ReactNode;
}

/** A list table of those screens: scrolls sideways on narrow screens, one row per entry. */
export function ListTable({ caption, columns, last, className = '', children }: ListTableProps) {
  return (
    <div className={`overflow-x-auto ${className}`.trim()}>
      <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <ListTableHead columns={columns} last={last} />
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </div>
  );
}
