/**
 * One CORS rule for images, info.json, manifests and the API: public projects' data answers any
 * origin with `*` and no credentials; everything else answers only the server's own origin and
 * those listed in FOLIA_CORS_ORIGINS (echoed, with credentials); when unsure, nothing.
 */
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { parseCorsOrigins } from '../../server/config';
import { storeImage } from '../../server/services/images';
import { makeActorsAndProjects, type Actors } from './actors';
import { insertElements } from './elementsFixtures';
import { Client, describeEachDialect } from './harness';

const HOST = 'folia.test';
const SAME = `http://${HOST}`;
const LISTED = 'https://viewer.example.org';
const OTHER = 'https://elsewhere.example.net';

function expectAnyOrigin(response: LightMyRequestResponse): void {
  expect(response.headers['access-control-allow-origin']).toBe('*');
  expect(response.headers['access-control-allow-credentials']).toBeUndefined();
}

function expectNoCors(response: LightMyRequestResponse): void {
  expect(response.headers['access-control-allow-origin']).toBeUndefined();
  expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  expect(String(response.headers.vary)).toMatch(/\bOrigin\b/);
}

function expectEchoed(response: LightMyRequestResponse, origin: string): void {
  expect(response.headers['access-control-allow-origin']).toBe(origin);
  expect(response.headers['access-control-allow-credentials']).toBe('true');
  expect(String(response.headers.vary)).toMatch(/\bOrigin\b/);
}

describeEachDialect(
  'CORS',
  ({ t }) => {
    let app: FastifyInstance;
    let actors: Actors;
    let anonymous: Client;
    let guest: Client;
    let publicImage: string;
    let privateImage: string;
    let publicFolder: string;
    let privateFolder: string;
    let publicId: string;
    let privateId: string;

    const from = (client: Client, url: string, origin?: string) =>
      client.get(url, { host: HOST, ...(origin ? { origin } : {}) });

    beforeAll(async () => {
      app = t().app;
      ({ actors, publicId, privateId } = await makeActorsAndProjects(app));
      anonymous = new Client(app);
      guest = new Client(app, actors.guest.token);
      const png = await sharp({
        create: { width: 300, height: 200, channels: 3, background: '#3366cc' },
      })
        .png()
        .toBuffer();
      publicImage = (await storeImage(app, { corpusId: publicId, buffer: png })).id;
      privateImage = (await storeImage(app, { corpusId: privateId, buffer: png })).id;
      publicFolder = (
        await insertElements(app, publicId, [
          { name: 'folder', type: 'folder' },
          { name: 'page', type: 'page', parent: 'folder', image: publicImage },
        ])
      ).folder!;
      privateFolder = (
        await insertElements(app, privateId, [
          { name: 'folder', type: 'folder' },
          { name: 'page', type: 'page', parent: 'folder', image: privateImage },
        ])
      ).folder!;
    });

    describe('a public project', () => {
      it('answers its images and info.json to any origin with *, without credentials', async () => {
        for (const url of [
          `/iiif/${publicImage}/full/64,/0/default.jpg`,
          `/iiif/${publicImage}/info.json`,
        ]) {
          for (const client of [anonymous, guest]) {
            const response = await from(client, url, OTHER);
            expect(response.statusCode).toBe(200);
            expectAnyOrigin(response);
          }
          // With no Origin at all too: a shared cache may then give the answer to anyone.
          expectAnyOrigin(await from(anonymous, url));
        }
      });

      it('answers its refusals with * too, so another site can read why', async () => {
        const response = await from(
          anonymous,
          `/iiif/${publicImage}/full/full/0/default.gif`,
          OTHER,
        );
        expect(response.statusCode).toBe(400);
        expectAnyOrigin(response);
      });

      it('answers its manifests and API reads to any origin', async () => {
        for (const url of [
          `iiif/${publicFolder}/manifest/`,
          `corpus/${publicId}/`,
          `element/${publicFolder}/`,
          `elements/${publicFolder}/children/`,
          `corpus/${publicId}/elements/`,
        ]) {
          const response = await from(anonymous, `/api/v1/${url}`, OTHER);
          expect(response.statusCode, url).toBe(200);
          expectAnyOrigin(response);
        }
      });

      it('answers a listed origin with its own origin and credentials', async () => {
        const response = await from(guest, `/iiif/${publicImage}/info.json`, LISTED);
        expectEchoed(response, LISTED);
      });

      it('does not open writes to other origins', async () => {
        const owner = new Client(app, actors.owner.token);
        const response = await owner.request(
          'PATCH',
          `corpus/${publicId}/`,
          { description: 'from elsewhere' },
          { host: HOST, origin: OTHER },
        );
        expect(response.statusCode).toBe(200);
        expectNoCors(response);
      });
    });

    describe('a private project', () => {
      it('answers no other origin, even for a member', async () => {
        for (const url of [
          `/iiif/${privateImage}/full/64,/0/default.jpg`,
          `/iiif/${privateImage}/info.json`,
          `/api/v1/iiif/${privateFolder}/manifest/`,
          `/api/v1/corpus/${privateId}/`,
          `/api/v1/element/${privateFolder}/`,
        ]) {
          const response = await from(guest, url, OTHER);
          expect(response.statusCode, url).toBe(200);
          expectNoCors(response);
        }
      });

      it('answers its 404 to an anonymous caller with no CORS either', async () => {
        const response = await from(anonymous, `/iiif/${privateImage}/info.json`, OTHER);
        expect(response.statusCode).toBe(404);
        expectNoCors(response);
      });

      it('answers a listed origin and its own origin, echoed, with credentials', async () => {
        for (const origin of [LISTED, SAME]) {
          for (const url of [
            `/iiif/${privateImage}/full/64,/0/default.jpg`,
            `/api/v1/corpus/${privateId}/`,
          ]) {
            const response = await from(guest, url, origin);
            expect(response.statusCode).toBe(200);
            expectEchoed(response, origin);
            expect(response.headers['access-control-expose-headers']).toMatch(/\bETag\b/);
          }
        }
      });
    });

    describe('the API outside projects', () => {
      it('answers an anonymous list of projects, which holds public ones only, with *', async () => {
        const response = await from(anonymous, '/api/v1/corpus/', OTHER);
        expect(response.json().map((corpus: { id: string }) => corpus.id)).toContain(publicId);
        expectAnyOrigin(response);
      });

      it('answers a member’s list of projects, which may hold private ones, to no other origin', async () => {
        const response = await from(guest, '/api/v1/corpus/', OTHER);
        expect(response.json().map((corpus: { id: string }) => corpus.id)).toContain(privateId);
        expectNoCors(response);
      });

      it('answers what reads no project (the caller’s own profile) to no other origin', async () => {
        const response = await from(guest, '/api/v1/user/', OTHER);
        expect(response.statusCode).toBe(200);
        expectNoCors(response);
        expectEchoed(await from(guest, '/api/v1/user/', LISTED), LISTED);
      });

      it('never answers with credentials to an origin it was not told of', async () => {
        for (const url of [
          `/api/v1/corpus/${publicId}/`,
          `/iiif/${publicImage}/info.json`,
          '/api/v1/user/',
        ]) {
          const response = await from(guest, url, 'https://folia.test.evil.example');
          expect(response.headers['access-control-allow-credentials']).toBeUndefined();
        }
      });
    });

    describe('preflight requests', () => {
      const preflight = (url: string, origin: string, method = 'GET') =>
        app.inject({
          method: 'OPTIONS',
          url,
          headers: {
            host: HOST,
            origin,
            'access-control-request-method': method,
            'access-control-request-headers': 'authorization, if-unmodified-since, content-type',
          },
        });

      it('let any origin send reads with the API’s headers', async () => {
        for (const url of [
          `/api/v1/corpus/${privateId}/`,
          `/iiif/${publicImage}/info.json`,
          `/api/v1/iiif/${publicFolder}/manifest/`,
        ]) {
          const response = await preflight(url, OTHER);
          expect(response.statusCode).toBe(204);
          expectAnyOrigin(response);
          expect(response.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
          const headers = String(response.headers['access-control-allow-headers']).toLowerCase();
          for (const header of [
            'authorization',
            'content-type',
            'if-unmodified-since',
            'x-csrftoken',
            'idempotency-key',
          ]) {
            expect(headers).toContain(header);
          }
          expect(Number(response.headers['access-control-max-age'])).toBeGreaterThan(0);
        }
      });

      it('let listed origins send writes, with credentials', async () => {
        const response = await preflight(`/api/v1/corpus/${privateId}/`, LISTED, 'PATCH');
        expect(response.statusCode).toBe(204);
        expectEchoed(response, LISTED);
        expect(String(response.headers['access-control-allow-methods'])).toMatch(
          /\bPATCH\b.*\bDELETE\b|\bDELETE\b.*\bPATCH\b/,
        );
      });
    });
  },
  { FOLIA_CORS_ORIGINS: `${LISTED}, https://tools.example.org/` },
);

describe('FOLIA_CORS_ORIGINS', () => {
  it('reads comma-separated origins', () => {
    expect(parseCorsOrigins(' https://a.example.org, http://b.example.org:8080/ ,')).toEqual([
      'https://a.example.org',
      'http://b.example.org:8080',
    ]);
    expect(parseCorsOrigins(undefined)).toEqual([]);
  });

  it('refuses what is not an origin', () => {
    for (const value of ['*', 'viewer.example.org', 'https://a.example.org/path', 'ftp://a.org']) {
      expect(() => parseCorsOrigins(value)).toThrow(/FOLIA_CORS_ORIGINS/);
    }
  });
});
