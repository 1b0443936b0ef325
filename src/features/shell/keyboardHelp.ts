import { useEffect } from 'react';
import { createStore } from '@/lib/store';

/** Whether the keyboard help is open: the "?" key and the user menu both open it. */
export const keyboardHelpOpen = createStore(false);

export function openKeyboardHelp(): void {
  keyboardHelpOpen.set(true);
}

export function closeKeyboardHelp(): void {
  keyboardHelpOpen.set(false);
}

/** The shortcuts of spec 000 §2, in the order the help lists them. */
export const SHORTCUTS: { keys: string[]; description: string }[] = [
  { keys: ['Ctrl', '←'], description: 'Go to the previous element' },
  { keys: ['Ctrl', '→'], description: 'Go to the next element' },
  { keys: ['Esc'], description: 'Cancel the polygon being drawn' },
  { keys: ['Enter'], description: 'In the annotation form, create or update the annotation' },
  { keys: ['m'], description: 'Load more children or dataset elements' },
  { keys: ['?'], description: 'Show this help' },
];

/** A "?" typed into a field is text, not a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  // isContentEditable is not implemented everywhere (jsdom), the attribute always is.
  return (
    target.isContentEditable || !!target.closest('[contenteditable]:not([contenteditable="false"])')
  );
}

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
