import { notify } from '@/components/notifications/store';

export const ID_COPIED = 'ID copied to clipboard';

async function copyText(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Older browsers and non-secure origins have no Clipboard API.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand?.('copy') ?? false;
  area.remove();
  if (!copied) throw new Error('The browser refused to copy.');
}

/**
 * The element's ID with a button that copies it. Its name is "Copy ID" followed by the short ID
 * it shows, so the words seen on it are part of its name (WCAG 2.5.3).
 */
export function CopyIdButton({ id }: { id: string }) {
  const copy = async () => {
    try {
      await copyText(id);
      notify({ type: 'success', text: ID_COPIED });
    } catch (error) {
      notify({ type: 'error', text: `The ID could not be copied: ${(error as Error).message}` });
    }
  };
  return (
    <button
      type="button"
      onClick={() => void copy()}
      title={id}
      aria-label={`Copy ID ${id.slice(0, 8)}`}
      className="inline-flex min-h-6 items-center gap-1 rounded border border-slate-300 bg-white px-2 py-0.5 font-mono text-xs text-slate-600 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-500"
    >
      {id.slice(0, 8)}
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="size-3.5"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.5}
      >
        <rect x="5" y="5" width="8.5" height="8.5" rx="1.5" />
        <path d="M11 5V3.5A1.5 1.5 0 0 0 9.5 2h-6A1.5 1.5 0 0 0 2 3.5v6A1.5 1.5 0 0 0 3.5 11H5" />
      </svg>
    </button>
  );
}
