import { useId, useState } from 'react';
import type { Dataset } from '@/api/datasets';
import { ErrorList } from '@/components/modal/ErrorList';
import { ui } from '@/components/styles';
import { SetBadge, setColour, setIndex } from '../SetBadge';
import { RATIO_MAX, RATIO_MIN, absorbingSet, ratioSum, sumsToTotal, type Ratios } from './ratios';

/** Spec 001 §5 "Populate", word for word. */
export const RATIO_SUM_MESSAGE = 'The sum of all ratios must be 100%';

export interface RatioFieldsProps {
  dataset: Dataset;
  ratios: Ratios;
  onChange: (name: string, value: number) => void;
  /** What the server said of the sets. */
  errors: readonly string[];
  disabled?: boolean;
}

/** One percentage per set of the dataset, in the dataset's order and colours. */
export function RatioFields({ dataset, ratios, onChange, errors, disabled }: RatioFieldsProps) {
  const id = useId();
  // A field being retyped may be empty for a moment; it keeps its ratio until a number comes.
  const [emptied, setEmptied] = useState<string | null>(null);
  const last = absorbingSet(Object.keys(ratios));
  const messages = sumsToTotal(ratios) ? [...errors] : [RATIO_SUM_MESSAGE, ...errors];
  const errorsId = `${id}-errors`;
  return (
    <fieldset aria-describedby={messages.length ? errorsId : undefined}>
      <legend className={ui.label}>Ratios</legend>
      <div className="mt-2 flex flex-col gap-2">
        {dataset.sets.map((set) => {
          const index = setIndex(dataset, set.name);
          const ratio = ratios[set.name] ?? 0;
          const inputId = `${id}-${index}`;
          return (
            <div key={set.id} className="grid grid-cols-[8rem_5.5rem_1fr] items-center gap-3">
              <label htmlFor={inputId} className="min-w-0">
                <SetBadge name={set.name} index={index} />
              </label>
              <div className="flex items-center gap-1">
                <input
                  id={inputId}
                  type="number"
                  inputMode="numeric"
                  min={RATIO_MIN}
                  max={RATIO_MAX}
                  step={1}
                  value={emptied === set.name ? '' : ratio}
                  disabled={disabled}
                  aria-invalid={messages.length > 0}
                  onChange={(event) => {
                    const raw = event.target.value;
                    if (raw.trim() === '') {
                      setEmptied(set.name);
                      return;
                    }
                    setEmptied(null);
                    const value = Number(raw);
                    if (Number.isFinite(value)) onChange(set.name, value);
                  }}
                  onBlur={() => setEmptied(null)}
                  className={`${ui.input} mt-0 w-16 text-right`}
                />
                <span aria-hidden="true">%</span>
              </div>
              <div className="h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <div
                  className={`h-full ${setColour(index).bar} transition-[width]`}
                  style={{ width: `${Math.min(RATIO_MAX, ratio)}%` }}
                />
              </div>
            </div>
          );
        })}
      </div>
      <p className={ui.help}>
        Total {ratioSum(ratios)}%.
        {last && dataset.sets.length > 1 && ` ${last} takes what the other sets leave.`} A set at 0%
        gets no element.
      </p>
      <ErrorList id={errorsId} messages={messages} />
    </fieldset>
  );
}
