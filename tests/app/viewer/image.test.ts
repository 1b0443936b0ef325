import { describe, expect, it } from 'vitest';
import {
  hasValidDimensions,
  imageOpenFailure,
  infoJsonUrl,
  sizeMismatch,
  sourceImageUrl,
  tileRequestMode,
} from '@/features/viewer/image';

describe('IIIF image facts', () => {
  it('accepts only positive whole dimensions', () => {
    expect(hasValidDimensions({ width: 1000, height: 1500 })).toBe(true);
    for (const [width, height] of [
      [0, 1500],
      [1000, -1],
      [10.5, 20],
      [Number.NaN, 3],
    ]) {
      expect(hasValidDimensions({ width: width!, height: height! })).toBe(false);
    }
    expect(
      hasValidDimensions({ width: null, height: 5 } as unknown as {
        width: number;
        height: number;
      }),
    ).toBe(false);
  });

  it('builds info.json and full image addresses from the image URL', () => {
    expect(infoJsonUrl({ url: 'https://iiif.example.org/iiif/2/abc' })).toBe(
      'https://iiif.example.org/iiif/2/abc/info.json',
    );
    expect(sourceImageUrl({ url: 'https://iiif.example.org/iiif/2/abc/' })).toBe(
      'https://iiif.example.org/iiif/2/abc/full/full/0/default.jpg',
    );
  });

  it('reports a size the image server disagrees on', () => {
    expect(sizeMismatch({ width: 1000, height: 1500 }, { width: 1000, height: 1500 })).toBeNull();
    expect(sizeMismatch({ width: 1000, height: 1500 }, { width: 500, height: 750 })).toMatch(
      /500 × 750 .* 1000 × 1500/,
    );
  });
});

describe('an image the image server does not give', () => {
  it('is explained in words, from what the viewer reports', () => {
    const url = 'https://iiif.example.org/iiif/2/p1/info.json';
    expect(imageOpenFailure(`HTTP 0 attempting to load TileSource: ${url}`)).toBe(
      'The image server could not be reached (no answer, or an answer this page may not read).',
    );
    expect(imageOpenFailure(`HTTP 404 attempting to load TileSource: ${url}`)).toBe(
      'The image server does not have this image (HTTP 404).',
    );
    expect(imageOpenFailure(`HTTP 403 attempting to load TileSource: ${url}`)).toBe(
      'The image server refused access to the image (HTTP 403).',
    );
    expect(imageOpenFailure(`HTTP 503 attempting to load TileSource: ${url}`)).toBe(
      'The image server failed (HTTP 503).',
    );
    expect(imageOpenFailure('Unable to load TileSource')).toBe(
      "The image server's answer is not a IIIF image description.",
    );
  });
});

describe('tile requests', () => {
  const page = 'https://app.example.org/element/1';

  it('send credentials only for a private image on our own API server elsewhere', () => {
    expect(
      tileRequestMode(
        'https://api.example.org/iiif/1',
        false,
        page,
        'https://api.example.org/api/v1',
      ),
    ).toEqual({
      crossOriginPolicy: 'use-credentials',
      ajaxWithCredentials: true,
    });
  });

  it('stay anonymous for public images, same-origin images and other IIIF servers', () => {
    const anonymous = { crossOriginPolicy: 'Anonymous', ajaxWithCredentials: false };
    expect(
      tileRequestMode(
        'https://api.example.org/iiif/1',
        true,
        page,
        'https://api.example.org/api/v1',
      ),
    ).toEqual(anonymous);
    // Same origin: the browser sends the session cookie anyway.
    expect(tileRequestMode('https://app.example.org/iiif/1', false, page, '/api/v1')).toEqual(
      anonymous,
    );
    // A remote IIIF server answering "*" would refuse a credentialed request.
    expect(tileRequestMode('https://iiif.example.com/iiif/2/x', false, page, '/api/v1')).toEqual(
      anonymous,
    );
  });
});
