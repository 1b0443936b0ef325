/** A dict field: rows of key and value; values are kept as text (spec 000 §5). */
import { ui } from '@/components/styles';
import type { DictRow } from './formState';

export function DictInput({
  rows,
  onChange,
  disabled,
  labelledBy,
  invalid,
}: {
  rows: DictRow[];
  onChange: (rows: DictRow[]) => void;
  disabled: boolean;
  labelledBy: string;
  invalid: boolean;
}) {
  const update = (index: number, row: DictRow) =>
    onChange(rows.map((existing, at) => (at === index ? row : existing)));
  return (
    <div
      role="group"
      aria-labelledby={labelledBy}
      aria-invalid={invalid || undefined}
      className="mt-1 flex flex-col gap-2"
    >
      {rows.map((row, index) => (
        <div key={index} className="flex items-center gap-2">
          <input
            type="text"
            aria-label={`Key ${index + 1}`}
            placeholder="Key"
            className={`${ui.input} mt-0`}
            value={row.key}
            disabled={disabled}
            onChange={(event) => update(index, { ...row, key: event.target.value })}
          />
          <input
            type="text"
            aria-label={`Value ${index + 1}`}
            placeholder="Value"
            className={`${ui.input} mt-0`}
            value={row.value}
            disabled={disabled}
            onChange={(event) => update(index, { ...row, value: event.target.value })}
          />
          {!disabled && (
            <button
              type="button"
              className={ui.secondaryButton}
              aria-label={`Remove entry ${index + 1}`}
              onClick={() => onChange(rows.filter((_, at) => at !== index))}
            >
              ✕
            </button>
          )}
        </div>
      ))}
      {!disabled && (
        <button
          type="button"
          className={`${ui.secondaryButton} self-start`}
          onClick={() => onChange([...rows, { key: '', value: '' }])}
        >
          Add an entry
        </button>
      )}
      {disabled && rows.length === 0 && <p className="text-sm text-slate-500">Empty</p>}
    </div>
  );
}
