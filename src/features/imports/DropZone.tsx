import { useId, useRef, useState, type DragEvent } from 'react';
import { ACCEPT_ATTRIBUTE } from './fileTypes';
import { ui } from './styles';

/** Where files are dropped, or chosen with the system's file dialog; many at once. */
export function DropZone({
  disabled,
  onFiles,
}: {
  disabled: boolean;
  onFiles: (files: File[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const helpId = useId();

  const dragOver = (event: DragEvent) => {
    if (disabled) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setOver(true);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    const files = [...event.dataTransfer.files];
    if (files.length) onFiles(files);
  };

  return (
    <div
      role="group"
      aria-label="Drop zone"
      aria-describedby={helpId}
      aria-disabled={disabled || undefined}
      onDragEnter={dragOver}
      onDragOver={dragOver}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={`flex flex-col items-center gap-3 rounded-lg border-2 border-dashed px-6 py-10 text-center transition-colors ${
        disabled
          ? 'border-slate-200 bg-slate-50 text-slate-400'
          : over
            ? 'border-brand-500 bg-brand-50 text-brand-900'
            : 'border-slate-300 bg-white text-slate-600'
      }`}
    >
      <p className="text-base font-medium">
        {over ? 'Drop the files to upload them' : 'Drop files here to upload them'}
      </p>
      <p className="text-sm">or</p>
      <button
        type="button"
        className={ui.primaryButton}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        Choose files
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPT_ATTRIBUTE}
        aria-label="Files to upload"
        tabIndex={-1}
        className="sr-only"
        disabled={disabled}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          // Cleared, so choosing the same file again after a failure still reports a change.
          event.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      <p id={helpId} className="max-w-xl text-xs text-slate-500">
        Images (JPEG, PNG, TIFF), PAGE or ALTO XML files with the images they describe (same name,
        another extension), and IIIF manifests (.json). Up to 2 GB per file.
      </p>
    </div>
  );
}
