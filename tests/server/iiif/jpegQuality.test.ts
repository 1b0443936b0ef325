import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { jpegQuality, luminanceTable } from '../../../server/iiif/jpegQuality';
import { imageFile, storeImage } from '../../../server/services/images';
import { describeEachDialect } from '../harness';

/** A page-like picture: a paper gradient with fine noise, which JPEG quality shows in bytes. */
async function scanPixels(width = 1400, height = 1000): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < raw.length; i += 1) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const x = Math.floor(i / 3) % width;
    raw[i] = 150 + Math.round((x * 60) / width) + (seed % 40);
  }
  return raw;
}

const jpeg = async (quality: number) =>
  sharp(await scanPixels(), { raw: { width: 1400, height: 1000, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();

describe('the quality a JPEG was saved at', () => {
  it.each([25, 50, 60, 75, 85, 90, 95, 100])('reads quality %i back from its table', async (q) => {
    expect(await jpegQuality(await jpeg(q))).toBeGreaterThanOrEqual(q - 1);
    expect(await jpegQuality(await jpeg(q))).toBeLessThanOrEqual(q + 1);
  });

  it('reads it from a file on disk too', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-quality-'));
    try {
      const file = path.join(dir, 'scan.jpg');
      fs.writeFileSync(file, await jpeg(72));
      expect(await jpegQuality(file)).toBe(72);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says nothing of other formats, or of a JPEG cut before its tables', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await jpegQuality(png)).toBeNull();
    expect(luminanceTable((await jpeg(80)).subarray(0, 30))).toBeNull();
    expect(await jpegQuality(path.join(os.tmpdir(), 'no-such-scan.jpg'))).toBeNull();
  });
});

describeEachDialect('the pyramid made at import', ({ t }) => {
  it('is never written above the source JPEG quality', async () => {
    const { app, config } = t();
    const pixels = await scanPixels();
    const lossless = await sharp(pixels, { raw: { width: 1400, height: 1000, channels: 3 } })
      .png()
      .toBuffer();
    const fromPng = await storeImage(app, { corpusId: null, buffer: lossless, filename: 'a.png' });
    const fromQ50 = await storeImage(app, {
      corpusId: null,
      buffer: await jpeg(50),
      filename: 'b.jpg',
    });
    const size = (image: typeof fromPng) => fs.statSync(imageFile(config.dataDir, image)!).size;
    // The same pixels: at the source's Q50 the pyramid is far smaller than at the default Q85.
    expect(size(fromQ50)).toBeLessThan(size(fromPng) * 0.6);
    // Within twice the source: its smaller levels add a third, tiles their own headers.
    expect(size(fromQ50)).toBeLessThan((await jpeg(50)).length * 2);
  });
});
