/**
 * The Display section of the element navigation menu: whether the children tree shows beside
 * annotations (non-folder elements) and beside folders. Kept per browser, like any view setting.
 */
import { createStore, useStore } from '@/lib/store';

export interface DisplaySettings {
  annotationsTree: boolean;
  folderTree: boolean;
}

const KEY = 'folia.display.trees';
const DEFAULTS: DisplaySettings = { annotationsTree: true, folderTree: false };

function read(): DisplaySettings {
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    if (!raw) return DEFAULTS;
    const parsed = JSON.parse(raw) as Partial<DisplaySettings>;
    return {
      annotationsTree:
        typeof parsed.annotationsTree === 'boolean'
          ? parsed.annotationsTree
          : DEFAULTS.annotationsTree,
      folderTree: typeof parsed.folderTree === 'boolean' ? parsed.folderTree : DEFAULTS.folderTree,
    };
  } catch {
    // Storage can be blocked (private windows); the defaults still work.
    return DEFAULTS;
  }
}

export const displaySettings = createStore<DisplaySettings>(read());

export function setDisplaySetting(name: keyof DisplaySettings, value: boolean): void {
  displaySettings.set((current) => ({ ...current, [name]: value }));
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(displaySettings.get()));
  } catch {
    // Not persisted, but this visit keeps the choice.
  }
}

export function useDisplaySettings(): DisplaySettings {
  return useStore(displaySettings);
}
