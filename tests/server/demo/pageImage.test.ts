import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderDemoPage } from '../../../server/demo/pageImage';

describe('generated demo pages', () => {
  it('renders a JPEG of the declared size whose zones lie inside it', async () => {
    const page = await renderDemoPage(3, 1200, 1600);
    const meta = await sharp(page.jpeg).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 1600]);
    const points = page.regions.flatMap((r) => [
      ...r.polygon,
      ...r.lines.flatMap((l) => l.polygon),
    ]);
    for (const [x, y] of points) {
      expect(Number.isInteger(x) && Number.isInteger(y)).toBe(true);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(1200);
      expect(y).toBeLessThanOrEqual(1600);
    }
  });

  it('draws ink where the line zones are, and none between lines', async () => {
    const page = await renderDemoPage(1, 1200, 1600);
    const { data, info } = await sharp(page.jpeg)
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const darkness = (x0: number, y0: number, x1: number, y1: number) => {
      let dark = 0;
      for (let y = y0; y < y1; y += 1) {
        for (let x = x0; x < x1; x += 1) if (data[y * info.width + x]! < 120) dark += 1;
      }
      return dark;
    };
    const paragraph = page.regions.find((r) => r.type === 'paragraph')!;
    const [first, second] = paragraph.lines;
    const ys = (line: typeof first) => line!.polygon.map((p) => p[1]);
    const xs = (line: typeof first) => line!.polygon.map((p) => p[0]);
    expect(
      darkness(
        Math.min(...xs(first)),
        Math.min(...ys(first)),
        Math.max(...xs(first)),
        Math.max(...ys(first)),
      ),
    ).toBeGreaterThan(200);
    // The strip between the two lines' zones holds no ink.
    expect(
      darkness(
        Math.min(...xs(first)),
        Math.max(...ys(first)) + 2,
        Math.max(...xs(first)),
        Math.min(...ys(second)) - 2,
      ),
    ).toBe(0);
  });

  it('is deterministic: the same page index gives the same zones and texts', async () => {
    const [a, b] = await Promise.all([renderDemoPage(5, 800, 1100), renderDemoPage(5, 800, 1100)]);
    expect(a.regions).toEqual(b.regions);
    expect(a.regions.flatMap((r) => r.lines.map((l) => l.text)).join(' ')).toMatch(/\w+ \w+/);
  });
});
