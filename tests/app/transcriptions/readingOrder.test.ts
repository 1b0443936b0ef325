import { describe, expect, it } from 'vitest';
import type { ElementListItem } from '@/api/types';
import { inReadingOrder } from '@/features/transcriptions/readingOrder';

const image = { id: 'i', url: 'https://iiif.example.org/iiif/2/p1', width: 1000, height: 1000 };
const box = (id: string, type: string, x: number, y: number, w: number, h: number) =>
  ({
    id,
    name: id,
    type,
    zone: {
      id,
      image,
      url: '',
      polygon: [
        [x, y],
        [x + w, y],
        [x + w, y + h],
        [x, y + h],
        [x, y],
      ],
    },
  }) as unknown as ElementListItem;

describe('the reading order of a page’s lines', () => {
  it('puts back together the lines of each region that a recursive list interleaves', () => {
    // As the recursive list orders them: depth, then position in each one's own parent.
    const zones = [
      box('title', 'paragraph', 0, 0, 1000, 100),
      box('body', 'paragraph', 0, 200, 1000, 300),
      box('imprint', 'paragraph', 0, 800, 1000, 150),
      box('title-1', 'text_line', 10, 10, 900, 40),
      box('body-1', 'text_line', 10, 210, 900, 40),
      box('imprint-1', 'text_line', 10, 810, 900, 40),
      box('body-2', 'text_line', 10, 260, 900, 40),
      box('imprint-2', 'text_line', 10, 860, 900, 40),
      box('body-3', 'text_line', 10, 310, 900, 40),
    ];
    const lines = zones.filter((zone) => zone.type === 'text_line');
    expect(inReadingOrder(lines, zones).map((line) => line.id)).toEqual([
      'title-1',
      'body-1',
      'body-2',
      'body-3',
      'imprint-1',
      'imprint-2',
    ]);
  });

  it('keeps the list’s order for lines that no region holds, among the regions', () => {
    const zones = [
      box('first', 'paragraph', 0, 0, 1000, 100),
      box('loose', 'text_line', 10, 150, 900, 40),
      box('second', 'paragraph', 0, 200, 1000, 100),
      box('second-1', 'text_line', 10, 210, 900, 40),
      box('first-1', 'text_line', 10, 10, 900, 40),
    ];
    const lines = zones.filter((zone) => zone.type === 'text_line');
    expect(inReadingOrder(lines, zones).map((line) => line.id)).toEqual([
      'first-1',
      'loose',
      'second-1',
    ]);
  });

  it('follows the page within a region whose lines the file has out of order', () => {
    // A title page's region as a PAGE file may list it: the lines added late come first.
    const zones = [
      box('title', 'paragraph', 0, 0, 1000, 100),
      box('author', 'paragraph', 300, 700, 500, 350),
      box('title-1', 'text_line', 200, 10, 600, 60),
      box('von', 'text_line', 600, 880, 60, 20),
      box('heinrich', 'text_line', 360, 990, 560, 50),
      box('novelle', 'text_line', 480, 730, 320, 45),
    ];
    const lines = zones.filter((zone) => zone.type === 'text_line');
    expect(inReadingOrder(lines, zones).map((line) => line.id)).toEqual([
      'title-1',
      'novelle',
      'von',
      'heinrich',
    ]);
  });

  it('reads lines side by side left to right, or right to left for right-to-left text', () => {
    // Two half lines on one row (their tops and heights differ a little), then a full line.
    const zones = [
      box('region', 'paragraph', 0, 0, 1000, 300),
      box('below', 'text_line', 10, 150, 980, 40),
      box('right', 'text_line', 520, 12, 470, 50),
      box('left', 'text_line', 10, 10, 480, 40),
    ];
    const lines = zones.filter((zone) => zone.type === 'text_line');
    expect(inReadingOrder(lines, zones).map((line) => line.id)).toEqual(['left', 'right', 'below']);
    const rtl = () => 'horizontal-rl' as const;
    expect(inReadingOrder(lines, zones, rtl).map((line) => line.id)).toEqual([
      'right',
      'left',
      'below',
    ]);
  });

  it('reads vertical text column by column, from the right for vertical-rl', () => {
    const zones = [
      box('middle', 'text_line', 450, 10, 60, 900),
      box('right', 'text_line', 850, 10, 60, 900),
      box('left', 'text_line', 50, 10, 60, 900),
    ];
    expect(inReadingOrder(zones, zones, () => 'vertical-rl').map((line) => line.id)).toEqual([
      'right',
      'middle',
      'left',
    ]);
    expect(inReadingOrder(zones, zones, () => 'vertical-lr').map((line) => line.id)).toEqual([
      'left',
      'middle',
      'right',
    ]);
  });

  it('orders the lines of a page without regions by their place on it', () => {
    const zones = [
      box('third', 'text_line', 10, 210, 900, 40),
      box('first', 'text_line', 10, 10, 900, 40),
      box('second', 'text_line', 10, 110, 900, 40),
    ];
    expect(inReadingOrder(zones, zones).map((line) => line.id)).toEqual([
      'first',
      'second',
      'third',
    ]);
  });
});
