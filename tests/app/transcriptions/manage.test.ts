import { describe, expect, it } from 'vitest';
import type { Element, Transcription } from '@/api/types';
import { croppedImageUrl, groupByRun } from '@/features/transcriptions/ManageTranscriptionsModal';

const image = { id: 'i', url: 'https://iiif.example.org/iiif/2/p1', width: 1000, height: 800 };
const withZone = (polygon: [number, number][]) =>
  ({ name: 'Line 1', zone: { id: 'z', polygon, image, url: '' } }) as unknown as Element;

describe('manual transcription management', () => {
  it('crops the zone with a 25 unit margin, kept inside the image', () => {
    const line = withZone([
      [100, 200],
      [600, 200],
      [600, 260],
      [100, 260],
      [100, 200],
    ]);
    expect(croppedImageUrl(line)).toBe(`${image.url}/75,175,550,110/full/0/default.jpg`);
    const corner = withZone([
      [10, 5],
      [990, 5],
      [990, 790],
      [10, 790],
    ]);
    expect(croppedImageUrl(corner)).toBe(`${image.url}/0,0,1000,800/full/0/default.jpg`);
  });

  it('groups the manual transcriptions apart from those of each worker run', () => {
    const run = { id: 'r1', summary: 'Worker Kraken @ abc123' };
    const items = [
      { id: '1', text: 'a', worker_run: run },
      { id: '2', text: 'b', worker_run: null },
      { id: '3', text: 'c', worker_run: run },
    ] as Transcription[];
    const { manual, runs } = groupByRun(items);
    expect(manual.map((item) => item.id)).toEqual(['2']);
    expect(runs).toEqual([{ summary: run.summary, items: [items[0], items[2]] }]);
  });
});
