import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '@/api/errors';
import { ui } from '@/components/styles';
import { downloadBlob } from '@/lib/download';
import { localDb, type PackRow } from '@/offline/db';
import { exportPack, type OfflineExportFormat } from '@/offline/exports/exportPack';

const FORMATS: { format: OfflineExportFormat; label: string }[] = [
  { format: 'pagexml', label: 'PAGE XML' },
  { format: 'alto', label: 'ALTO' },
  { format: 'csv', label: 'CSV' },
];

/**
 * Exports a pack from what this device holds, edits not yet sent included: no request is made,
 * so it works with the network off.
 */
export function PackExportMenu({ pack }: { pack: PackRow }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !root.current?.contains(event.target as Node)
      )
        setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  const run = async (format: OfflineExportFormat) => {
    setOpen(false);
    setBusy(true);
    setError(null);
    try {
      const file = await exportPack(localDb, pack.id, format);
      downloadBlob(file.filename, new Blob([file.bytes as BlobPart], { type: file.mime }));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  // The menu opens upwards: the packs are listed at the foot of a dialog that clips below.
  return (
    <div ref={root} className="relative">
      <button
        type="button"
        className={ui.secondaryButton}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Export ${pack.name}`}
        disabled={busy}
        onClick={() => setOpen((value) => !value)}
      >
        {busy ? 'Exporting…' : 'Export'}
      </button>
      {open && (
        <ul
          role="menu"
          aria-label={`Export ${pack.name} as`}
          className="absolute right-0 bottom-full z-10 mb-1 min-w-36 rounded border border-slate-200 bg-white py-1 shadow-lg"
        >
          {FORMATS.map(({ format, label }) => (
            <li key={format} role="none">
              <button
                type="button"
                role="menuitem"
                className="w-full px-3 py-1.5 text-left hover:bg-slate-100 focus-visible:bg-slate-100"
                onClick={() => void run(format)}
              >
                {label}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p role="alert" className="text-red-700">
          Could not export it: {error}
        </p>
      )}
    </div>
  );
}
