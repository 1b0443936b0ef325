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
});
