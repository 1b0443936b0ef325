/**
 * Where the stack of notifications goes so that it hides no action: the first corner, in order
 * of preference, where it fits on screen without covering what must stay clear (the navbar, a
 * modal's buttons, the button just pressed, the details sheet) nor, where it can, any other
 * control. A bottom corner's stack slides
 * up past what it would cover, a top corner's slides down. Pure, so each case is tested alone.
 */

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export type Corner = 'bottom-left' | 'bottom-right' | 'top-right' | 'top-left';

/** Away from the side panels (details, annotation tools), which sit on the right. */
export const CORNERS: readonly Corner[] = ['bottom-left', 'bottom-right', 'top-right', 'top-left'];

export interface Placement {
  corner: Corner;
  /** CSS pixels from the corner's horizontal edge (bottom or top) to the stack. */
  offset: number;
}

/** From the screen's edges, and between the stack and what it moves away from. */
export const MARGIN_PX = 16;
const GAP_PX = 8;

const overlaps = (a: Rect, b: Rect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * `keepClear` must never be covered; `rather` (the other controls on screen) is left clear
 * when some corner can: the first corner that covers neither wins, else the first that covers
 * nothing of `keepClear`.
 */
export function placeStack(
  stack: { width: number; height: number },
  viewport: { width: number; height: number },
  keepClear: readonly Rect[],
  rather: readonly Rect[] = [],
): Placement {
  const clear = keepClear.filter(hasArea);
  const others = rather.filter(hasArea);
  let fallback: Placement | null = null;
  for (const corner of CORNERS) {
    const offset = slide(corner, stack, viewport, clear);
    if (offset === null) continue;
    const placement = { corner, offset };
    if (!others.some((other) => overlaps(stackRect(placement, stack, viewport), other))) {
      return placement;
    }
    fallback ??= placement;
  }
  // Nowhere is clear (a screen full of buttons): the usual place.
  return fallback ?? { corner: CORNERS[0]!, offset: MARGIN_PX };
}

const hasArea = (rect: Rect) => rect.right > rect.left && rect.bottom > rect.top;

function stackRect(
  { corner, offset }: Placement,
  stack: { width: number; height: number },
  viewport: { width: number; height: number },
): Rect {
  const left = corner.endsWith('left') ? MARGIN_PX : viewport.width - MARGIN_PX - stack.width;
  const top = corner.startsWith('bottom') ? viewport.height - offset - stack.height : offset;
  return { left, right: left + stack.width, top, bottom: top + stack.height };
}

function slide(
  corner: Corner,
  stack: { width: number; height: number },
  viewport: { width: number; height: number },
  clear: readonly Rect[],
): number | null {
  const fromBottom = corner.startsWith('bottom');
  let offset = MARGIN_PX;
  for (;;) {
    const rect = stackRect({ corner, offset }, stack, viewport);
    if (rect.top < 0 || rect.bottom > viewport.height) return null;
    const covered = clear.filter((other) => overlaps(rect, other));
    if (covered.length === 0) return offset;
    offset = fromBottom
      ? viewport.height - Math.min(...covered.map((other) => other.top)) + GAP_PX
      : Math.max(...covered.map((other) => other.bottom)) + GAP_PX;
  }
}
