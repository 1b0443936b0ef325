import type { ElementListItem } from '@/api/types';
import { ElementCard, type ElementCardSelection } from '@/components/ElementCard';

export interface ElementGridProps {
  elements: readonly ElementListItem[];
  typeName: (slug: string) => string;
  selection?: (element: ElementListItem) => ElementCardSelection | undefined;
  /** A newer list is on its way; the one shown is the previous one. */
  stale?: boolean;
  /** The list's accessible name. */
  label?: string;
}

/** Cards, a quarter of the width on desktop and half on small screens. */
export function ElementGrid({
  elements,
  typeName,
  selection,
  stale = false,
  label = 'Elements',
}: ElementGridProps) {
  if (elements.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 p-8 text-center text-slate-600">
        No elements to display.
      </p>
    );
  }
  return (
    <ul
      aria-label={label}
      aria-busy={stale}
      className={`grid grid-cols-2 gap-4 lg:grid-cols-4 ${stale ? 'opacity-60 transition-opacity' : ''}`}
    >
      {elements.map((element) => (
        <li key={element.id} className="min-w-0">
          <ElementCard
            element={element}
            typeName={typeName(element.type)}
            selection={selection?.(element)}
          />
        </li>
      ))}
    </ul>
  );
}
