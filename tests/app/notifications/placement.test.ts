import { describe, expect, it } from 'vitest';
import { MARGIN_PX, placeStack, type Rect } from '@/components/notifications/placement';

const desktop = { width: 1440, height: 900 };
const tablet = { width: 820, height: 1180 };
const stack = { width: 384, height: 60 };
const navbar: Rect = { left: 0, top: 0, right: 1440, bottom: 48 };
const rect = (left: number, top: number, width: number, height: number): Rect => ({
  left,
  top,
  right: left + width,
  bottom: top + height,
});

describe('where notifications stack', () => {
  it('goes to the bottom left, away from the side panels on the right', () => {
    expect(placeStack(stack, desktop, [navbar])).toEqual({
      corner: 'bottom-left',
      offset: MARGIN_PX,
    });
  });

  it('stacks above the button just pressed in its corner', () => {
    const pressed = rect(40, 850, 80, 36);
    expect(placeStack(stack, desktop, [navbar, pressed])).toEqual({
      corner: 'bottom-left',
      offset: 900 - 850 + 8,
    });
  });

  it('takes the other bottom corner when the pressed button leaves no room above it', () => {
    const column = rect(16, 60, 200, 840);
    expect(placeStack(stack, desktop, [navbar, column])).toEqual({
      corner: 'bottom-right',
      offset: MARGIN_PX,
    });
  });

  it('stacks above a sheet along the bottom of the screen', () => {
    const sheet = rect(0, 1124, 820, 56);
    expect(placeStack(stack, tablet, [sheet])).toEqual({
      corner: 'bottom-left',
      offset: 1180 - 1124 + 8,
    });
  });

  it('slides past a modal footer, and past the pressed button above it', () => {
    const footer = [rect(300, 1100, 90, 36), rect(400, 1100, 90, 36)];
    const modalBottomLeft = rect(16, 1120, 90, 36);
    const wide = { width: 788, height: 60 };
    const placed = placeStack(wide, tablet, [...footer, modalBottomLeft]);
    expect(placed).toEqual({ corner: 'bottom-left', offset: 1180 - 1100 + 8 });
  });

  it('never covers the navbar: it stops below it, or stays in its corner', () => {
    const below = rect(0, 130, 1440, 770);
    expect(placeStack(stack, desktop, [navbar, below])).toEqual({
      corner: 'bottom-left',
      offset: 900 - 130 + 8,
    });
    // No room between the navbar and the buttons: no corner is clear.
    const tooHigh = rect(0, 90, 1440, 810);
    expect(placeStack(stack, desktop, [navbar, tooHigh])).toEqual({
      corner: 'bottom-left',
      offset: MARGIN_PX,
    });
  });

  it('ignores what has no box (hidden, or laid out by its children)', () => {
    expect(placeStack(stack, desktop, [rect(16, 824, 0, 0)])).toEqual({
      corner: 'bottom-left',
      offset: MARGIN_PX,
    });
  });

  it('keeps the usual place when nowhere is clear', () => {
    expect(placeStack(stack, desktop, [rect(0, 0, 1440, 900)])).toEqual({
      corner: 'bottom-left',
      offset: MARGIN_PX,
    });
  });
});

describe('where notifications stack, among the other controls', () => {
  it('leaves a link at the bottom left alone when the bottom right is free', () => {
    const link = rect(316, 840, 120, 24);
    expect(placeStack(stack, desktop, [navbar], [link])).toEqual({
      corner: 'bottom-right',
      offset: MARGIN_PX,
    });
  });

  it('covers another control rather than what must stay clear', () => {
    const everywhere = rect(0, 60, 1440, 840);
    expect(placeStack(stack, desktop, [navbar], [everywhere])).toEqual({
      corner: 'bottom-left',
      offset: MARGIN_PX,
    });
  });
});
