import { useState } from 'react';
import type { TextOrientation } from '@/api/types';
import { ui } from '@/components/styles';
import { isOrientation, isRightToLeft, ORIENTATIONS } from './orientation';

export const HINTS = {
  text: 'A valid text is required to create the transcription',
  orientation: 'A valid text orientation is required',
  form: 'Please fill out the creation form',
} as const;

/** Why the form cannot be sent (spec 001 §5 "Transcription"), or null when it can. */
export function blockedHint(text: string, orientation: string): string | null {
  const textOk = text.trim().length > 0;
  const orientationOk = isOrientation(orientation);
  if (!textOk && !orientationOk) return HINTS.form;
  if (!textOk) return HINTS.text;
  if (!orientationOk) return HINTS.orientation;
  return null;
}

/** A transcription's text and orientation. Enter alone submits; Shift+Enter starts a new line. */
export function TranscriptionForm({
  initial,
  submitLabel,
  resetOnSubmit = false,
  onSubmit,
  onCancel,
}: {
  initial: { text: string; orientation: TextOrientation };
  submitLabel: string;
  resetOnSubmit?: boolean;
  /** False when the text was not saved: the form keeps it. */
  onSubmit: (text: string, orientation: TextOrientation) => Promise<boolean | void>;
  onCancel?: () => void;
}) {
  const [text, setText] = useState(initial.text);
  const [orientation, setOrientation] = useState<string>(initial.orientation);
  const [pending, setPending] = useState(false);
  const hint = blockedHint(text, orientation);

  const submit = async () => {
    if (hint || pending || !isOrientation(orientation)) return;
    setPending(true);
    try {
      const saved = await onSubmit(text.trim(), orientation);
      if (resetOnSubmit && saved !== false) setText('');
    } finally {
      setPending(false);
    }
  };

  return (
    <form
      className="flex flex-col gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <label className={ui.label}>
        Text
        <textarea
          className={`${ui.input} font-transcription`}
          rows={2}
          dir={isRightToLeft(orientation) ? 'rtl' : 'ltr'}
          value={text}
          disabled={pending}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              void submit();
            }
          }}
        />
      </label>
      <label className={ui.label}>
        Orientation
        <select
          className={ui.input}
          value={orientation}
          disabled={pending}
          onChange={(event) => setOrientation(event.target.value)}
        >
          {ORIENTATIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
      <div className="flex justify-end gap-2">
        {onCancel && (
          <button type="button" className={ui.secondaryButton} onClick={onCancel}>
            Cancel
          </button>
        )}
        <button
          type="submit"
          className={ui.primaryButton}
          disabled={!!hint || pending}
          title={hint ?? undefined}
        >
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
