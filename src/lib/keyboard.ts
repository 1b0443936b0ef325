/** Keys typed into a field are text, not page shortcuts. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  // isContentEditable is missing in jsdom; the attribute is always there.
  return (
    target.isContentEditable || !!target.closest('[contenteditable]:not([contenteditable="false"])')
  );
}
