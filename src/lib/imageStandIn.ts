/**
 * What an image of rendered Markdown gives way to when it cannot be drawn. Apart from the
 * renderer (src/lib/markdown.ts), which loads only when Markdown is first shown.
 */

/** What stands for an image that cannot be drawn: its alt text, or nothing. */
export function imageStandIn(image: HTMLImageElement): Text | null {
  const alt = image.getAttribute('alt')?.trim();
  return alt ? image.ownerDocument.createTextNode(alt) : null;
}

/** Puts the alt text (or nothing) where `image` was. */
export function replaceImage(image: HTMLImageElement): void {
  const standIn = imageStandIn(image);
  if (standIn) image.replaceWith(standIn);
  else image.remove();
}
