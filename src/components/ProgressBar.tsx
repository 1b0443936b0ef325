/** A labelled progress bar; `value` from 0 to 1, or null while the amount is unknown. */
export function ProgressBar({
  label,
  value,
  tone = 'brand',
  size = 'md',
}: {
  label: string;
  value: number | null;
  tone?: 'brand' | 'success' | 'error';
  size?: 'sm' | 'md';
}) {
  const percent = value === null ? null : Math.round(Math.min(1, Math.max(0, value)) * 100);
  const color =
    tone === 'success' ? 'bg-emerald-500' : tone === 'error' ? 'bg-red-500' : 'bg-brand-600';
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      {...(percent !== null && { 'aria-valuenow': percent, 'aria-valuetext': `${percent}%` })}
      className={`w-full overflow-hidden rounded-full bg-slate-200 ${size === 'sm' ? 'h-1.5' : 'h-2.5'}`}
    >
      <div
        className={`h-full ${color} transition-[width] duration-200 ${percent === null ? 'w-1/3 animate-pulse' : ''}`}
        style={percent === null ? undefined : { width: `${percent}%` }}
      />
    </div>
  );
}
