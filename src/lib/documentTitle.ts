/**
 * The browser tab's title: what the page shows, most specific first, then the app's name
 * ("0005 — Register 1742 — Folia"). A page naming what it shows wins over the screen's name,
 * which the shell gives every route, whichever of the two was set last.
 */
import { useEffect } from 'react';

export const APP_TITLE = 'Folia';
const SEPARATOR = ' — ';

export function formatTitle(parts: readonly (string | null | undefined)[]): string {
  const named = parts.map((part) => part?.trim()).filter((part): part is string => !!part);
  return [...named, APP_TITLE].join(SEPARATOR);
}

/** A screen's name only, from the shell (fallback), or what a page shows (page). */
export type TitleSource = 'fallback' | 'page';

const claims = new Map<symbol, { title: string; source: TitleSource }>();

function apply(): void {
  let title = APP_TITLE;
  let fromPage = false;
  for (const claim of claims.values()) {
    if (claim.source === 'page' || !fromPage) title = claim.title;
    fromPage ||= claim.source === 'page';
  }
  document.title = title;
}

/** Titles the tab while the calling component is mounted, and again whenever `parts` change. */
export function useDocumentTitle(
  parts: readonly (string | null | undefined)[],
  source: TitleSource = 'page',
): void {
  const title = formatTitle(parts);
  useEffect(() => {
    const key = Symbol(title);
    claims.set(key, { title, source });
    apply();
    return () => {
      claims.delete(key);
      apply();
    };
  }, [title, source]);
}
