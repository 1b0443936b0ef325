/**
 * Whether one finger draws and edits on the image as a pen does (two fingers still pan and
 * zoom). Off by default, since one finger pans everywhere else on a tablet; kept per browser,
 * like any view setting, so a tablet without a pen is set up once.
 */
import { createStore, useStore } from '@/lib/store';

const KEY = 'folia.annotation.fingerDrawing';

function read(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === 'true';
  } catch {
    // Storage can be blocked (private windows): off, as by default.
    return false;
  }
}

export const fingerDrawing = createStore<boolean>(read());

export function setFingerDrawing(on: boolean): void {
  fingerDrawing.set(on);
  try {
    globalThis.localStorage?.setItem(KEY, String(on));
  } catch {
    // Not persisted, but this visit keeps the choice.
  }
}

export function useFingerDrawing(): boolean {
  return useStore(fingerDrawing);
}
