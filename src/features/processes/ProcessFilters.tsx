/** What a process runs on: its element, selection or filters, in a few words. */
import { Link } from '@tanstack/react-router';
import type { Process } from '@/api/processTypes';
import { ui } from '@/components/styles';

const CHILDREN: Record<Process['load_children'], string> = {
  none: 'The elements only',
  direct: 'The elements and their direct children',
  all: 'The elements and all their descendants',
};

export function ProcessFilters({ process }: { process: Process }) {
  const rows: [string, React.ReactNode][] = [];
  if (process.selection_count > 0) {
    rows.push(['Selection', `${process.selection_count} selected elements`]);
  } else if (process.element) {
    rows.push([
      'Element',
      <Link key="element" to="/element/$id" params={{ id: process.element.id }} className={ui.link}>
        {process.element.name} ({process.element.type})
      </Link>,
    ]);
  }
  if (process.element_type) rows.push(['Element type', process.element_type]);
  if (process.element_name_contains) rows.push(['Name contains', process.element_name_contains]);
  if (process.ml_class_id) rows.push(['Class', process.ml_class_id]);
  if (process.mode === 'workers' || process.mode === 'template') {
    rows.push(['Elements loaded', CHILDREN[process.load_children] ?? process.load_children]);
  }
  if (process.farm) rows.push(['Farm', process.farm.name]);
  if (process.chunks > 1) rows.push(['Chunks', String(process.chunks)]);
  if (rows.length === 0) return null;
  return (
    <dl aria-label="Element filters" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd className="text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
