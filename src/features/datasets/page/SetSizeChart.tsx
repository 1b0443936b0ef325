/**
 * The size of each set as a bar chart: bars scaled to the largest set, each labelled with its
 * count, and a list a screen reader reads as "train: 80 elements".
 */
import type { Dataset } from '@/api/datasets';
import { SetBadge, setColour } from '../SetBadge';

export function elementCount(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'element' : 'elements'}`;
}

export function SetSizeChart({ dataset }: { dataset: Dataset }) {
  const counts = dataset.sets.map((set) => dataset.set_elements[set.name] ?? 0);
  const largest = Math.max(1, ...counts);
  const total = counts.reduce((sum, count) => sum + count, 0);
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <figcaption className="text-sm font-semibold text-slate-800">
        Elements per set <span className="font-normal text-slate-500">({elementCount(total)})</span>
      </figcaption>
      <ul aria-label="Elements per set" className="mt-3 flex flex-col gap-2">
        {dataset.sets.map((set, index) => {
          const count = counts[index] ?? 0;
          return (
            <li
              key={set.id}
              aria-label={`${set.name}: ${elementCount(count)}`}
              className="grid grid-cols-[minmax(4rem,8rem)_1fr_auto] items-center gap-3 text-sm"
            >
              <span className="min-w-0">
                <SetBadge name={set.name} index={index} />
              </span>
              <span aria-hidden="true" className="h-4 overflow-hidden rounded bg-slate-100">
                <span
                  data-testid="set-bar"
                  className={`block h-full rounded ${setColour(index).bar}`}
                  style={{ width: `${(count / largest) * 100}%` }}
                />
              </span>
              <span aria-hidden="true" className="text-right text-slate-700 tabular-nums">
                {count.toLocaleString('en')}
                {total > 0 && (
                  <span className="text-slate-500"> ({Math.round((count / total) * 100)}%)</span>
                )}
              </span>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}
