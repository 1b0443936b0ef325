export interface UpdatePromptProps {
  available: boolean;
  onReload: () => void;
  onLater: () => void;
}

/** A new service worker is waiting; it only takes over when the user says so. */
export function UpdatePrompt({ available, onReload, onLater }: UpdatePromptProps) {
  if (!available) return null;
  return (
    <section
      aria-label="Update available"
      className="fixed bottom-4 left-4 z-50 flex max-w-[calc(100vw-2rem)] flex-wrap items-center gap-3 rounded-lg border border-brand-100 bg-white px-4 py-3 text-sm shadow-lg"
    >
      <p role="status" className="text-slate-800">
        A new version of Folia is available.
      </p>
      <div className="flex gap-2">
        <button
          type="button"
          onClick={onReload}
          className="rounded bg-brand-600 px-3 py-1.5 font-medium text-white hover:bg-brand-700"
        >
          Reload
        </button>
        <button
          type="button"
          onClick={onLater}
          className="rounded px-3 py-1.5 font-medium text-slate-600 hover:bg-slate-100"
        >
          Later
        </button>
      </div>
    </section>
  );
}
