/**
 * A worker's type (spec 000 §3: colours exist for classifier, ner, recognizer, dla and
 * word-segmenter); other types read in grey.
 */
import type { WorkerType } from '@/api/workers';

export const WORKER_TYPE_COLOURS: Record<string, string> = {
  classifier: 'bg-violet-100 text-violet-800 ring-violet-300',
  ner: 'bg-amber-100 text-amber-900 ring-amber-300',
  recognizer: 'bg-sky-100 text-sky-800 ring-sky-300',
  dla: 'bg-emerald-100 text-emerald-800 ring-emerald-300',
  'word-segmenter': 'bg-rose-100 text-rose-800 ring-rose-300',
};

const OTHER = 'bg-slate-100 text-slate-700 ring-slate-300';

export function WorkerTypeBadge({ slug, types }: { slug: string; types?: WorkerType[] }) {
  const name = types?.find((type) => type.slug === slug)?.display_name ?? slug;
  return (
    <span
      data-worker-type={slug}
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${WORKER_TYPE_COLOURS[slug] ?? OTHER}`}
    >
      {name}
    </span>
  );
}
