import { useEffect } from 'react';
import { isTyping } from '@/lib/keyboard';
import { createStore } from '@/lib/store';

/** Whether the keyboard help is open: the "?" key and the user menu both open it. */
export const keyboardHelpOpen = createStore(false);

export function openKeyboardHelp(): void {
  keyboardHelpOpen.set(true);
}

export function closeKeyboardHelp(): void {
  keyboardHelpOpen.set(false);
}

/** One key, or any one of several (the arrow keys): alternatives, not keys pressed together. */
export type ShortcutKey = string | readonly string[];

const ARROWS = ['←', '↑', '→', '↓'] as const;

/** The shortcuts of spec 000 §2, in the order the help lists them; `keys` are pressed together. */
export const SHORTCUTS: { keys: ShortcutKey[]; description: string }[] = [
  { keys: ['Ctrl', '←'], description: 'Go to the previous element' },
  { keys: ['Ctrl', '→'], description: 'Go to the next element' },
  { keys: ['Esc'], description: 'Cancel the polygon being drawn' },
  { keys: ['Enter'], description: 'In the annotation form, create or update the annotation' },
  { keys: ['m'], description: 'Load more children or dataset elements' },
  { keys: ['?'], description: 'Show this help' },
  { keys: ['s'], description: 'Annotation mode: select tool' },
  { keys: ['t'], description: 'Annotation mode: edit type tool' },
  { keys: ['d'], description: 'Annotation mode: delete tool' },
  { keys: ['r'], description: 'Annotation mode: rectangle tool' },
  { keys: ['p'], description: 'Annotation mode: polygon tool' },
  { keys: ['i'], description: 'Annotation mode: median point tool' },
  { keys: [ARROWS], description: 'Annotation mode: move the selection by 1 pixel' },
  { keys: ['Shift', ARROWS], description: 'Annotation mode: move the selection by 10 pixels' },
  { keys: ['Delete'], description: 'Annotation mode: delete the selected zone' },
  { keys: ['Ctrl', 'Z'], description: 'Annotation mode: undo' },
  { keys: ['Ctrl', 'Shift', 'Z'], description: 'Annotation mode: redo (or Ctrl+Y)' },
];

export function useKeyboardHelpShortcut(): void {
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== '?' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || isTyping(event.target)) return;
      event.preventDefault();
      openKeyboardHelp();
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
