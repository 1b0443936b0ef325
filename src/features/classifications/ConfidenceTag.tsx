/** Spec 001 §5 "Confidence tag": above 0.8 success, above 0.6 warning, else danger. */
export const HIGH_CONFIDENCE = 0.8;
export const MEDIUM_CONFIDENCE = 0.6;

export function confidenceLevel(value: number): 'success' | 'warning' | 'danger' {
  if (value > HIGH_CONFIDENCE) return 'success';
  if (value > MEDIUM_CONFIDENCE) return 'warning';
  return 'danger';
}

const COLOURS = {
  success: 'bg-emerald-100 text-emerald-800',
  warning: 'bg-amber-100 text-amber-800',
  danger: 'bg-red-100 text-red-800',
};

export function ConfidenceTag({ value }: { value: number | null }) {
  if (value === null) return null;
  const level = confidenceLevel(value);
  return (
    <span
      data-level={level}
      className={`shrink-0 rounded px-1.5 py-0.5 text-xs font-medium ${COLOURS[level]}`}
    >
      {Math.round(value * 100)}%
    </span>
  );
}
