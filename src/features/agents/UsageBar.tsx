/** A thin bar under a figure: how full a machine's slots, CPU or memory are. */
export function UsageBar({ label, value }: { label: string; value: number }) {
  const percent = Math.round(value * 100);
  const tone = value >= 0.9 ? 'bg-red-500' : value >= 0.7 ? 'bg-amber-500' : 'bg-emerald-500';
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      className="mt-1 h-1.5 w-24 overflow-hidden rounded-full bg-slate-200"
    >
      <div className={`h-full ${tone}`} style={{ width: `${percent}%` }} />
    </div>
  );
}
