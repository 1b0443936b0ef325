/**
 * Element lists on a large project (default 1,000,000 elements: folders → pages → lines; set
 * FOLIA_BENCH_ELEMENTS for another size), on SQLite and on PostgreSQL when reachable. Each case
 * is timed through the API (app.inject: auth, rights, filter checks, the queries, serialization,
 * JSON) next to the same COUNT and page queries run directly on the database in the same
 * process; the ratio is what the API adds.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Image } from '../server/db/schema';
import { createElements, type NewElement } from '../server/services/elements/create';
import type { ElementFilters } from '../server/services/elements/filters';
import {
  elementCountQuery,
  elementPageQuery,
  type ListScope,
  type OrderSpec,
} from '../server/services/elements/lists';
import { chunks, INSERT_CHUNK } from '../server/services/elements/repository';
import { measure, printTable, type Figure } from './measure';
import {
  postgresAnswers,
  seedProject,
  seedUser,
  withBenchApp,
  type BenchUser,
  type DialectName,
} from './seed';

const LINES_PER_PAGE = 99;
const PAGES_PER_FOLDER = 100;
/** Each case runs for about this long (at least 5 and at most 200 runs). */
const CASE_BUDGET_MS = 3000;

interface Shape {
  folders: number;
  pagesPerFolder: number;
}

export function shapeFor(total: number): Shape {
  const perFolder = 1 + PAGES_PER_FOLDER * (1 + LINES_PER_PAGE);
  const folders = Math.max(1, Math.round(total / perFolder));
  const pagesPerFolder = Math.max(
    1,
    Math.min(PAGES_PER_FOLDER, Math.round((total / folders - 1) / (1 + LINES_PER_PAGE))),
  );
  return { folders, pagesPerFolder };
}

interface Project {
  corpusId: string;
  types: Record<string, string>;
  /** A folder in the middle, one of its pages, and how many elements were made. */
  folderId: string;
  pageId: string;
  pages: number;
  total: number;
}

/** One folder per transaction: 10,001 elements and their links through createElements. */
export async function generate(
  app: FastifyInstance,
  user: BenchUser,
  shape: Shape,
): Promise<Project> {
  const now = new Date().toISOString();
  const corpusId = await seedProject(app, user, 'Bench project');
  await app.db
    .updateTable('corpora')
    .set({ top_level_type: 'folder' })
    .where('id', '=', corpusId)
    .execute();
  const typeRows = await app.db
    .selectFrom('element_types')
    .select(['id', 'slug'])
    .where('corpus_id', '=', corpusId)
    .execute();
  const types = Object.fromEntries(typeRows.map((row) => [row.slug, row.id]));

  let total = 0;
  let folderId = '';
  let pageId = '';
  const started = performance.now();
  for (let f = 0; f < shape.folders; f += 1) {
    const folder = randomUUID();
    const images: Image[] = [];
    const elements: NewElement[] = [
      { id: folder, corpusId, typeId: types.folder!, name: `Folder ${pad(f, 4)}` },
    ];
    for (let p = 0; p < shape.pagesPerFolder; p += 1) {
      const page = randomUUID();
      const image: Image = {
        id: randomUUID(),
        corpus_id: corpusId,
        path: null,
        url: `https://iiif.example.org/iiif/2/f${f}-p${p}.jpg`,
        width: 2000,
        height: 3000,
        status: 'checked',
        mime: null,
        hash: null,
        created: now,
      };
      images.push(image);
      elements.push({
        id: page,
        corpusId,
        typeId: types.page!,
        name: `Page ${pad(f * shape.pagesPerFolder + p, 6)}`,
        parentId: folder,
        imageId: image.id,
      });
      for (let l = 0; l < LINES_PER_PAGE; l += 1) {
        const y = 20 + l * 29;
        elements.push({
          corpusId,
          typeId: types.text_line!,
          name: `Line ${pad(l, 2)}`,
          parentId: page,
          imageId: image.id,
          polygon: [
            [100, y],
            [1900, y],
            [1900, y + 25],
            [100, y + 25],
            [100, y],
          ],
          confidence: (l % 10) / 10,
        });
      }
      if (f === Math.floor(shape.folders / 2) && p === Math.floor(shape.pagesPerFolder / 2)) {
        pageId = page;
      }
    }
    if (f === Math.floor(shape.folders / 2)) folderId = folder;
    await app.db.transaction().execute(async (trx) => {
      for (const part of chunks(images, INSERT_CHUNK)) {
        await trx.insertInto('images').values(part).execute();
      }
      await createElements(trx, elements, new Map(images.map((image) => [image.id, image])));
    });
    total += elements.length;
    if ((f + 1) % 10 === 0 || f + 1 === shape.folders) {
      const seconds = (performance.now() - started) / 1000;
      console.log(
        `  ${total.toLocaleString('en')} elements in ${seconds.toFixed(0)} s (${Math.round(total / seconds).toLocaleString('en')}/s)`,
      );
    }
  }
  return { corpusId, types, folderId, pageId, pages: shape.folders * shape.pagesPerFolder, total };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

interface Case {
  label: string;
  url: string;
  scope: ListScope;
  filters: ElementFilters;
  order: OrderSpec;
  pageSize: number;
}

function cases(project: Project): Case[] {
  const { corpusId, folderId, pageId, types } = project;
  const corpus: ListScope = { kind: 'corpus', corpusId };
  const byName: OrderSpec = { order: 'name', direction: 'asc' };
  const byPosition: OrderSpec = { order: 'position', direction: 'asc' };
  const base = `/api/v1/corpus/${corpusId}/elements/`;
  // A page well into the list, within it whatever the project's size.
  const deep = Math.max(1, Math.min(10, Math.floor(project.pages / 20)));
  return [
    {
      label: 'children of a folder (position, 20)',
      url: `/api/v1/elements/${folderId}/children/`,
      scope: { kind: 'children', parentId: folderId, recursive: false },
      filters: {},
      order: byPosition,
      pageSize: 20,
    },
    {
      label: 'children of a page (position, 100)',
      url: `/api/v1/elements/${pageId}/children/?page_size=100`,
      scope: { kind: 'children', parentId: pageId, recursive: false },
      filters: {},
      order: byPosition,
      pageSize: 100,
    },
    {
      label: 'recursive children of a folder (20)',
      url: `/api/v1/elements/${folderId}/children/?recursive=true`,
      scope: { kind: 'children', parentId: folderId, recursive: true },
      filters: {},
      order: byPosition,
      pageSize: 20,
    },
    {
      label: 'recursive folder children, type=page',
      url: `/api/v1/elements/${folderId}/children/?recursive=true&type=page`,
      scope: { kind: 'children', parentId: folderId, recursive: true },
      filters: { typeId: types.page },
      order: byPosition,
      pageSize: 20,
    },
    {
      label: 'project list, top_level=true',
      url: `${base}?top_level=true`,
      scope: corpus,
      filters: { topLevel: true },
      order: byName,
      pageSize: 20,
    },
    {
      label: 'project list, type=page',
      url: `${base}?type=page`,
      scope: corpus,
      filters: { typeId: types.page },
      order: byName,
      pageSize: 20,
    },
    {
      label: `project list, type=page&folder=false, page ${deep}`,
      url: `${base}?type=page&folder=false&page=${deep}`,
      scope: corpus,
      filters: { typeId: types.page, folder: { folder: false, folderTypeIds: [types.folder!] } },
      order: byName,
      pageSize: 20,
    },
    {
      label: 'project list, name=Page 0001',
      url: `${base}?name=Page%200001`,
      scope: corpus,
      filters: { name: 'Page 0001' },
      order: byName,
      pageSize: 20,
    },
    {
      label: 'project list, no filter',
      url: base,
      scope: corpus,
      filters: {},
      order: byName,
      pageSize: 20,
    },
    {
      label: 'project list, type=text_line',
      url: `${base}?type=text_line`,
      scope: corpus,
      filters: { typeId: types.text_line },
      order: byName,
      pageSize: 20,
    },
  ];
}

/** Enough runs to fill the budget, judged from one timed run. */
async function runsFor(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  const ms = Math.max(0.01, performance.now() - t0);
  return Math.max(5, Math.min(200, Math.round(CASE_BUDGET_MS / ms)));
}

interface Pair {
  api: Figure;
  direct: Figure;
}

function benchDialect(dialect: DialectName, shape: Shape): Promise<Pair[]> {
  return withBenchApp(dialect, async (app) => {
    const user = await seedUser(app);
    console.log(`\n${dialect}: generating…`);
    const project = await generate(app, user, shape);
    // Statistics (and on PostgreSQL the visibility map that index-only scans rely on), as a
    // database would have once autovacuum has seen the import.
    await (dialect === 'postgres' ? sql`VACUUM ANALYZE` : sql`ANALYZE`).execute(app.db);
    const { headers } = user;
    const pairs: Pair[] = [];
    for (const item of cases(project)) {
      const api = async () => {
        const response = await app.inject({ url: item.url, headers });
        if (response.statusCode !== 200) throw new Error(`${item.url}: ${response.body}`);
      };
      const page = Number(/[?&]page=(\d+)/.exec(item.url)?.[1] ?? 1);
      const direct = async () => {
        await elementCountQuery(app.db, item.scope, item.filters).executeTakeFirst();
        await elementPageQuery(app.db, item.scope, item.filters, item.order)
          .limit(item.pageSize)
          .offset((page - 1) * item.pageSize)
          .execute();
      };
      const label = `${dialect}: ${item.label}`;
      pairs.push({
        api: await measure(`${label} — API`, await runsFor(api), api),
        direct: await measure(`${label} — direct`, await runsFor(direct), direct),
      });
      console.log(`  measured ${item.label}`);
    }
    return pairs;
  });
}

export async function run(): Promise<void> {
  const total = Number(process.env.FOLIA_BENCH_ELEMENTS ?? 1_000_000);
  const shape = shapeFor(total);
  console.log(
    `${shape.folders} folders × ${shape.pagesPerFolder} pages × ${LINES_PER_PAGE} lines ` +
      `(≈${(shape.folders * (1 + shape.pagesPerFolder * (1 + LINES_PER_PAGE))).toLocaleString('en')} elements)`,
  );
  const dialects: DialectName[] = ['sqlite'];
  if (await postgresAnswers()) dialects.push('postgres');
  else console.log('(PostgreSQL unreachable: SQLite figures only)');
  for (const dialect of dialects) {
    const pairs = await benchDialect(dialect, shape);
    console.log('');
    printTable(pairs.flatMap((pair) => [pair.api, pair.direct]));
    console.log('\nratio API / direct query (median):');
    for (const { api, direct } of pairs) {
      console.log(
        `  ${api.label.replace(/ — API$/, '')}: ${(api.medianMs / direct.medianMs).toFixed(2)}×`,
      );
    }
  }
}
