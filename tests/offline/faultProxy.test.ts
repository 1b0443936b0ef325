import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FoliaDatabase } from '@/offline/db';
import { SyncEngine } from '@/offline/engine';
import type { Fetcher } from '@/offline/transport';
import { makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { startFaultProxy } from './faultProxy';
import { describeProject, random, RandomEdits } from './randomEdits';

describeEachDialect(
  '500 creations, renames, moves and deletions through a faulty network',
  ({ t }) => {
    let actors: Actors;
    let apiPort: number;
    let db: FoliaDatabase;

    beforeAll(async () => {
      actors = await makeActors(t().app);
      await t().app.listen({ port: 0, host: '127.0.0.1' });
      apiPort = (t().app.server.address() as AddressInfo).port;
    });
    afterAll(async () => {
      await db?.delete();
    });

    it('leaves the server exactly as the same edits made online: none lost, none twice', async () => {
      const corpusId = await makeCorpus(t().app, actors, { name: 'Faulty network' });
      const rand = random(42);
      const proxy = await startFaultProxy(
        apiPort,
        { drop: 0.1, unavailable: 0.1, lostAnswer: 0.15, maxLatencyMs: 5 },
        random(4242),
      );
      const token = actors.owner.token;
      // node:http with a fresh connection per request: fetch's connection pool would retry a
      // request on a dropped reused socket by itself, and the run would differ from try to try.
      const through =
        (port: number): Fetcher =>
        (url, init) =>
          new Promise<Response>((resolve, reject) => {
            const request = http.request(
              {
                host: '127.0.0.1',
                port,
                path: url,
                method: init.method,
                agent: false,
                headers: {
                  ...(init.headers as Record<string, string>),
                  authorization: `Token ${token}`,
                },
              },
              (answer) => {
                const chunks: Buffer[] = [];
                answer.on('data', (chunk: Buffer) => chunks.push(chunk));
                answer.on('error', reject);
                answer.on('aborted', () => reject(new TypeError('Failed to fetch')));
                answer.on('end', () => {
                  const status = answer.statusCode ?? 502;
                  const headers = new Headers();
                  for (const [name, value] of Object.entries(answer.headers)) {
                    if (typeof value === 'string') headers.set(name, value);
                  }
                  const empty = status === 204 || status === 304;
                  resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers }));
                });
              },
            );
            request.on('error', () => reject(new TypeError('Failed to fetch')));
            if (typeof init.body === 'string') request.write(init.body);
            request.end();
          });
      db = new FoliaDatabase(`folia-proxy-${randomUUID()}`);
      let now = Date.now();
      // One request at a time, so the run is the same at every try (see convergence.test.ts).
      const engine = new SyncEngine(db, {
        fetcher: through(proxy.port),
        now: () => now,
        concurrency: 1,
      });
      const edits = new RandomEdits(db, corpusId, 'px', rand);
      try {
        for (let made = 0; made < 500;) {
          if (await edits.step()) made += 1;
          else {
            await engine.sync();
            now += 120_000;
          }
        }
        for (let round = 0; round < 2000 && (await db.outbox.count()) > 0; round += 1) {
          await engine.sync();
          now += 120_000;
        }
      } finally {
        await proxy.close();
      }
      const left = await db.outbox.toArray();
      expect(left.map((e) => `${e.label} ${e.status} ${e.error?.message ?? ''}`)).toEqual([]);
      // Every kind of fault happened, answers lost after the server applied them included.
      expect(proxy.counts.lostAnswer).toBeGreaterThan(10);
      expect(proxy.counts.drop).toBeGreaterThan(10);
      await edits.refreshIds();
      const server = await describeProject(
        async (path) =>
          (
            await fetch(`http://127.0.0.1:${apiPort}${path}`, {
              headers: { authorization: `Token ${token}` },
            })
          ).json(),
        corpusId,
      );
      expect(server).toEqual(edits.expected());
    }, 120_000);
  },
);
