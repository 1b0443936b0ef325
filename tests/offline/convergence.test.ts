import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FoliaDatabase } from '@/offline/db';
import { createElement, deleteElement, moveElement, updateElement } from '@/offline/elementEdits';
import { SyncEngine } from '@/offline/engine';
import { clientFor, makeActors, makeCorpus, type Actors } from '../server/elementsFixtures';
import { describeEachDialect } from '../server/harness';
import { inProcessFetcher, type Fault } from './inProcessServer';

/** A small deterministic PRNG: a failing seed can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ModelElement {
  name: string;
  type: 'folder' | 'page';
  parent: string | null;
}

/** What the project must hold: "parent name > name (type)" lines, sorted. */
function describeModel(model: Map<string, ModelElement>): string[] {
  return [...model.values()]
    .map((e) => `${e.parent ? model.get(e.parent)!.name : '-'} > ${e.name} (${e.type})`)
    .sort();
}

describeEachDialect('random offline edits with random faults', ({ t }) => {
  let actors: Actors;
  let corpusId = '';
  const dbs: FoliaDatabase[] = [];

  beforeAll(async () => {
    actors = await makeActors(t().app);
  });
  afterAll(async () => {
    for (const db of dbs) await db.delete();
  });

  async function describeServer(): Promise<string[]> {
    const owner = clientFor(t().app, actors, 'owner');
    const lines: string[] = [];
    const walk = async (parentId: string | null, parentName: string) => {
      const url = parentId
        ? `elements/${parentId}/children/?page_size=500`
        : `corpus/${corpusId}/elements/?top_level=true&page_size=500`;
      const list = (await owner.get(url)).json().results as {
        id: string;
        name: string;
        type: string;
      }[];
      for (const element of list) {
        lines.push(`${parentName} > ${element.name} (${element.type})`);
        await walk(element.id, element.name);
      }
    };
    await walk(null, '-');
    return lines.sort();
  }

  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) {
    it(`converges to the state the same edits give online (seed ${seed})`, async () => {
      corpusId = await makeCorpus(t().app, actors, { name: `Convergence ${seed}` });
      const rand = random(seed);
      const pick = <T>(items: T[]): T | undefined => items[Math.floor(rand() * items.length)];
      const db = new FoliaDatabase(`folia-convergence-${randomUUID()}`);
      dbs.push(db);
      // Ids are the local ones: temporary at first, the server's once replayed.
      const model = new Map<string, ModelElement>();
      let counter = 0;
      const name = () => `s${seed}-n${++counter}`;
      const faults: Fault[] = ['none', 'none', 'lost-response', 'unavailable', 'unreachable'];
      const fetcher = inProcessFetcher(t().app, actors.owner.token, () => pick(faults)!);
      let now = Date.now();
      const engine = new SyncEngine(db, { fetcher, now: () => now });

      /** Local ids change when a creation is replayed: follow them in the model. */
      const refreshIds = async () => {
        for (const mapping of await db.idMap.toArray()) {
          const element = model.get(mapping.tempId);
          if (!element) continue;
          model.delete(mapping.tempId);
          model.set(mapping.serverId, element);
          for (const other of model.values()) {
            if (other.parent === mapping.tempId) other.parent = mapping.serverId;
          }
        }
      };
      const subtree = (id: string): Set<string> => {
        const found = new Set([id]);
        let grew = true;
        while (grew) {
          grew = false;
          for (const [other, element] of model) {
            if (element.parent && found.has(element.parent) && !found.has(other)) {
              found.add(other);
              grew = true;
            }
          }
        }
        return found;
      };

      for (let step = 0; step < 80; step += 1) {
        await refreshIds();
        const folders = [...model].filter(([, e]) => e.type === 'folder').map(([id]) => id);
        const all = [...model.keys()];
        const roll = rand();
        if (roll < 0.35 || all.length < 3) {
          const parent = rand() < 0.2 ? null : (pick(folders) ?? null);
          const type = rand() < 0.5 ? 'folder' : 'page';
          const element = { name: name(), type, parent } as ModelElement;
          const id = await createElement(db, {
            corpus: corpusId,
            parent,
            type,
            name: element.name,
          });
          model.set(id, element);
        } else if (roll < 0.6) {
          const id = pick(all)!;
          const renamed = name();
          await updateElement(db, id, { name: renamed });
          model.get(id)!.name = renamed;
        } else if (roll < 0.8) {
          const id = pick(all)!;
          const below = subtree(id);
          const destination = pick(folders.filter((f) => !below.has(f)));
          if (destination) {
            await moveElement(db, id, destination);
            model.get(id)!.parent = destination;
          }
        } else if (roll < 0.9) {
          const id = pick(all)!;
          await deleteElement(db, id);
          for (const gone of subtree(id)) model.delete(gone);
        } else {
          // The network comes back for a moment.
          await engine.sync();
          now += 120_000;
        }
      }
      // Three requests in five fail, and a run stops at the first unreachable server: many runs.
      for (let round = 0; round < 2000 && (await db.outbox.count()) > 0; round += 1) {
        await engine.sync();
        now += 120_000;
      }
      const left = await db.outbox.toArray();
      expect(left.map((e) => `${e.label} ${e.kind} ${e.status} ${e.error?.message ?? ''}`)).toEqual(
        [],
      );
      await refreshIds();
      expect(await describeServer()).toEqual(describeModel(model));
    });
  }
});
