// @vitest-environment jsdom
import OpenSeadragon from 'openseadragon';
import { describe, expect, it } from 'vitest';
import { iiifTileUrls, thumbnailSize, type IiifInfo } from '@/offline/iiifTiles';

const BASE = 'https://iiif.example.org/iiif/2/register-0005';
const INFO_URL = `${BASE}/info.json`;

/** What this project's server answers (server/iiif/info.ts): 512 px tiles, the pyramid as sizes. */
function serverInfo(width: number, height: number): IiifInfo {
  const factors = [1];
  while (Math.ceil(width / factors.at(-1)!) > 512 || Math.ceil(height / factors.at(-1)!) > 512) {
    factors.push(factors.at(-1)! * 2);
  }
  return {
    '@context': 'http://iiif.io/api/image/2/context.json',
    '@id': BASE,
    width,
    height,
    profile: ['http://iiif.io/api/image/2/level2.json', { supports: ['sizeByW'] }],
    tiles: [{ width: 512, scaleFactors: factors }],
    sizes: factors
      .map((factor) => ({ width: Math.ceil(width / factor), height: Math.ceil(height / factor) }))
      .reverse(),
  };
}

interface OsdTileSource {
  maxLevel: number;
  getNumTiles(level: number): { x: number; y: number };
  getTileUrl(level: number, x: number, y: number): string;
}

/** Every URL OpenSeadragon asks for, per level, from the same info.json. */
function viewerUrls(info: IiifInfo): string[][] {
  const Source = (OpenSeadragon as unknown as { IIIFTileSource: new (o: object) => OsdTileSource })
    .IIIFTileSource;
  const source = new Source(
    (
      OpenSeadragon as unknown as {
        IIIFTileSource: { prototype: { configure: (d: object, u: string) => object } };
      }
    ).IIIFTileSource.prototype.configure(structuredClone(info), INFO_URL),
  );
  const levels: string[][] = [];
  for (let level = 0; level <= source.maxLevel; level += 1) {
    const { x, y } = source.getNumTiles(level);
    const urls: string[] = [];
    for (let row = 0; row < y; row += 1) {
      for (let column = 0; column < x; column += 1)
        urls.push(source.getTileUrl(level, column, row));
    }
    levels.push(urls);
  }
  return levels;
}

const urls = (info: IiifInfo, zoom: 'thumbnail' | 'screen' | 'full', edge?: number) =>
  iiifTileUrls(info, INFO_URL, zoom, edge).map((tile) => tile.url);

describe('the tile URLs of an offline pack', () => {
  it('are the very URLs the viewer asks for, at full resolution', () => {
    for (const info of [
      serverInfo(2479, 3508),
      serverInfo(1000, 1500),
      serverInfo(6000, 8000),
      serverInfo(300, 200),
    ]) {
      expect(urls(info, 'full')).toEqual(viewerUrls(info).flat());
    }
  });

  it('follow IIIF 3, non-square tiles and level 0 servers as the viewer does', () => {
    const v3: IiifInfo = {
      '@context': 'http://iiif.io/api/image/3/context.json',
      id: BASE,
      width: 4000,
      height: 3000,
      profile: 'level1',
      tiles: [{ width: 1024, height: 512, scaleFactors: [1, 2, 4, 8] }],
    };
    const level0: IiifInfo = {
      ...serverInfo(3000, 2000),
      profile: ['http://iiif.io/api/image/2/level0.json'],
      sizes: undefined,
    };
    for (const info of [v3, level0]) expect(urls(info, 'full')).toEqual(viewerUrls(info).flat());
    expect(urls(level0, 'full')).toContain(`${BASE}/0,0,512,512/512,/0/default.jpg`);
  });

  it('keep, for thumbnails, the size nearest 400 px wide and the levels below it', () => {
    const info = serverInfo(6000, 8000);
    // Sizes: 375, 750, 1500, 3000, 6000 wide; 375 is nearest 400.
    expect(thumbnailSize(info)).toEqual({ width: 375, height: 500 });
    expect(urls(info, 'thumbnail')).toEqual([`${BASE}/full/375,/0/default.jpg`]);

    // A thumbnail between levels is asked for on its own, beside the levels below it.
    const between = { ...serverInfo(1000, 1500), sizes: [{ width: 400, height: 600 }] };
    expect(urls(between, 'thumbnail')).toEqual([
      `${BASE}/full/400,/0/default.jpg`,
      ...viewerUrls(between)[0]!,
    ]);
  });

  it('stop, for screen size, at the first level as long as the screen', () => {
    const info = serverInfo(6000, 8000);
    const levels = viewerUrls(info);
    // Levels 375×500, 750×1000, 1500×2000, 3000×4000, 6000×8000: 3000×4000 covers 2048 px.
    expect(urls(info, 'screen', 2048)).toEqual(levels.slice(0, 4).flat());
    expect(urls(info, 'screen', 1000)).toEqual(levels.slice(0, 2).flat());
    expect(urls(info, 'screen', 9000)).toEqual(levels.flat());
    expect(levels.flat()).toHaveLength(1 + 2 * 2 + 3 * 4 + 6 * 8 + 12 * 16);
  });

  it('read the sizes one by one from a level 0 server that cannot cut tiles', () => {
    const info: IiifInfo = {
      '@context': 'http://iiif.io/api/image/2/context.json',
      '@id': BASE,
      width: 2000,
      height: 1000,
      profile: ['http://iiif.io/api/image/2/level0.json'],
      sizes: [
        { width: 2000, height: 1000 },
        { width: 500, height: 250 },
        { width: 1000, height: 500 },
      ],
    };
    expect(urls(info, 'full')).toEqual(viewerUrls(info).flat());
    expect(urls(info, 'full')).toEqual([
      `${BASE}/full/500,/0/default.jpg`,
      `${BASE}/full/1000,/0/default.jpg`,
      `${BASE}/full/2000,/0/default.jpg`,
    ]);
    expect(urls(info, 'thumbnail')).toEqual([`${BASE}/full/500,/0/default.jpg`]);
    expect(urls(info, 'screen', 1000)).toEqual([
      `${BASE}/full/500,/0/default.jpg`,
      `${BASE}/full/1000,/0/default.jpg`,
    ]);
  });

  it('cut tiles as the viewer does from a server that lists none', () => {
    const info: IiifInfo = { ...serverInfo(2000, 1400), tiles: undefined, sizes: undefined };
    expect(urls(info, 'full')).toEqual(viewerUrls(info).flat());
  });
});
