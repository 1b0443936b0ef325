/**
 * What the element suites share: elements inserted in bulk through the service the importer
 * uses, images, and counts to check what a call stored.
 */
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createElements, type NewElement } from '../../server/services/elements/create';
import { createRemoteImage } from '../../server/services/images';
import type { Point } from '../../server/geometry/polygon';

// Suites outside the element ones still import these from here.
export { clientFor, makeActors, makeCorpus, type Actors, type Role } from './actors';
export { NOT_FOUND, UNKNOWN_ID, UUID, denied, validation } from './expectedErrors';

/** The project's type ids by slug. */
export async function typeIds(app: FastifyInstance, corpusId: string) {
  const rows = await app.db
    .selectFrom('element_types')
    .select(['id', 'slug'])
    .where('corpus_id', '=', corpusId)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.slug, row.id])) as Record<string, string>;
}

export async function makeImage(
  app: FastifyInstance,
  corpusId: string | null,
  width = 1000,
  height = 800,
) {
  return createRemoteImage(app, {
    corpusId,
    url: `https://iiif.example.org/iiif/2/page-${Math.random().toString(36).slice(2)}.jpg`,
    width,
    height,
  });
}

export interface Spec {
  name: string;
  type: string;
  parent?: string | null;
  image?: string | null;
  polygon?: Point[];
  confidence?: number | null;
  rotation?: number;
  mirrored?: boolean;
  creatorId?: string | null;
  workerRunId?: string | null;
}

/** Inserts elements (a parent before its children) and returns their ids by name. */
export async function insertElements(
  app: FastifyInstance,
  corpusId: string,
  specs: Spec[],
  known: Record<string, string> = {},
): Promise<Record<string, string>> {
  const types = await typeIds(app, corpusId);
  const ids: Record<string, string> = { ...known };
  for (const spec of specs) {
    const input: NewElement = {
      corpusId,
      typeId: types[spec.type]!,
      name: spec.name,
      parentId: spec.parent ? (ids[spec.parent] ?? spec.parent) : null,
      imageId: spec.image ?? null,
      polygon: spec.polygon ?? null,
      confidence: spec.confidence ?? null,
      rotationAngle: spec.rotation,
      mirrored: spec.mirrored,
      creatorId: spec.creatorId ?? null,
      workerRunId: spec.workerRunId ?? null,
    };
    const [id] = await app.db.transaction().execute((trx) => createElements(trx, [input]));
    ids[spec.name] = id!;
  }
  return ids;
}

export async function elementCount(app: FastifyInstance, corpusId?: string): Promise<number> {
  let query = app.db.selectFrom('elements').select((eb) => eb.fn.countAll().as('n'));
  if (corpusId) query = query.where('corpus_id', '=', corpusId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function linkCount(app: FastifyInstance): Promise<number> {
  const row = await app.db
    .selectFrom('element_links')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function names(body: { results: { name: string }[] }): string[] {
  return body.results.map((element) => element.name);
}

/** elements.top_level must say exactly which elements have no parent link. */
export async function expectTopLevelConsistent(app: FastifyInstance): Promise<void> {
  const rows = await app.db
    .selectFrom('elements')
    .select(['name', 'top_level'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('element_links')
            .select('element_links.parent_id')
            .whereRef('element_links.child_id', '=', 'elements.id'),
        )
        .as('has_parent'),
    )
    .execute();
  const wrong = rows.filter((row) => (row.top_level === 1) === Boolean(row.has_parent));
  expect(wrong.map((row) => row.name)).toEqual([]);
  expect(rows.length).toBeGreaterThan(0);
}
