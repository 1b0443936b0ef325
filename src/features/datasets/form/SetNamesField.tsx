import { ui } from '@/components/styles';
import { FieldErrors } from './TextField';

export const DEFAULT_SET_NAMES = ['train', 'dev', 'test'];

/** The set names a new dataset starts with: one field each, blank ones dropped on save. */
export function SetNamesField({
  names,
  onChange,
  errors,
  disabled,
}: {
  names: readonly string[];
  onChange: (names: string[]) => void;
  errors: readonly string[];
  disabled?: boolean;
}) {
  const replace = (index: number, value: string) =>
    onChange(names.map((name, at) => (at === index ? value : name)));
  return (
    <fieldset>
      <legend className={ui.label}>Sets</legend>
      <p className={ui.help}>Sets left blank are not created.</p>
      <ul className="mt-2 flex flex-col gap-2">
        {names.map((name, index) => (
          <li key={index} className="flex items-center gap-2">
            <input
              type="text"
              autoComplete="off"
              aria-label={`Set name ${index + 1}`}
              maxLength={50}
              value={name}
              disabled={disabled}
              aria-invalid={errors.length > 0}
              onChange={(event) => replace(index, event.target.value)}
              className={`${ui.input} mt-0`}
            />
            <button
              type="button"
              className={ui.secondaryButton}
              aria-label={`Remove set name ${index + 1}`}
              title="Remove this set"
              disabled={disabled}
              onClick={() => onChange(names.filter((_, at) => at !== index))}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className={`${ui.secondaryButton} mt-2`}
        disabled={disabled}
        onClick={() => onChange([...names, ''])}
      >
        Add a set
      </button>
      <FieldErrors messages={errors} />
    </fieldset>
  );
}

/** The names sent: trimmed, blank ones dropped (spec 001 §5 Datasets). */
export function setNamesToSend(names: readonly string[]): string[] {
  return names.map((name) => name.trim()).filter((name) => name !== '');
}
