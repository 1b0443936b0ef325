/**
 * Element calls at scale, the server as its own process answering over HTTP, on SQLite and on
 * PostgreSQL when it answers (ELEMENTS_BENCH_DIALECT=sqlite|postgres runs one only).
 *
 * The project is written straight into the schema by the driver (largeProject.ts): 10 folders
 * (99,970 elements) by default, 100 folders (999,700) with `--large`. Each case times the API
 * call (fetch over a kept-alive connection, whole body read) against the SQL that answer needs,
 * written by hand and run bare through the driver on the same database: one query for the
 * caller and their rights, then the rows. The two sides alternate, pair by pair; printed are
 * each side's median, the median of the pairs' ratios and the goal (≤ 1.5×). The HTTP floor
 * (GET /api/v1/, which only authenticates) is printed too, and with it the ratio left once the
 * floor is taken off: what the server adds beyond the round trip itself. To place the rest:
 * each answer's size, what JSON.stringify costs on it, and the same call answered in this
 * process (app.inject, no socket), and what one query costs through the query builder.
 *
 * Then load: 32 connections reading children lists of random pages for a few seconds, alone
 * and with 8 connections renaming lines meanwhile (reads should keep their speed).
 */
import http from 'node:http';
import type { Config } from '../server/config';
import { startChildServer, type ChildServer } from '../tests/server/childProcess';
import { makeThrowawayApp } from '../tests/server/throwawayApp';
import {
  elementsFor,
  folderId,
  LINES_PER_PAGE,
  lineId,
  loadProject,
  PAGES_PER_FOLDER,
  pageId,
  pageName,
} from './largeProject';
import { ms, pairsWithin, printRows, type PairFigure } from './pairs';
import { openRaw, type RawDriver } from './rawDriver';
import { seedProject, seedUser, type DialectName } from './seed';
import { median, onEachDialect, stopBench } from './serverProcess';

const LARGE = process.argv.includes('--large');
const FOLDERS = Number(process.env.ELEMENTS_BENCH_FOLDERS ?? (LARGE ? 100 : 10));
const DIALECT = process.env.ELEMENTS_BENCH_DIALECT;
const GOAL = 1.5;
const LOAD_SECONDS = 4;

interface Case {
  label: string;
  url: string;
  /** The statements the answer needs, in order, with their parameters. */
  sql: [string, unknown[]][];
}

const ROW = `e.*, t.slug, t.folder, cr.email, i.url AS image_url, i.path AS image_path,
  i.width AS image_width, i.height AS image_height, i.status AS image_status`;
const JOINS = `JOIN element_types t ON t.id = e.type_id
  LEFT JOIN users cr ON cr.id = e.creator_id LEFT JOIN images i ON i.id = e.image_id`;

/** The caller and their rights on a project, or on an element's project, in one query each. */
const RIGHTS_ON_CORPUS = `SELECT u.id, u.is_admin, m.level, c.public FROM users u
  CROSS JOIN corpora c LEFT JOIN memberships m ON m.user_id = u.id AND m.corpus_id = c.id
  WHERE u.auth_token = $1 AND u.is_active = 1 AND c.id = $2`;
const RIGHTS_ON_ELEMENT = `SELECT u.id, u.is_admin, m.level, c.public, e.corpus_id,
  e.children_updated FROM users u CROSS JOIN elements e JOIN corpora c ON c.id = e.corpus_id
  LEFT JOIN memberships m ON m.user_id = u.id AND m.corpus_id = c.id
  WHERE u.auth_token = $1 AND u.is_active = 1 AND e.id = $2`;

function children(token: string, parent: string, size: number, page: number): Case['sql'] {
  return [
    [RIGHTS_ON_ELEMENT, [token, parent]],
    ['SELECT count(*) AS n FROM element_links WHERE parent_id = $1', [parent]],
    [
      `SELECT ${ROW}, l.position FROM element_links l JOIN elements e ON e.id = l.child_id
       ${JOINS} WHERE l.parent_id = $1 ORDER BY l.position, e.id LIMIT ${size}
       OFFSET ${(page - 1) * size}`,
      [parent],
    ],
  ];
}

function corpusList(
  token: string,
  corpusId: string,
  where: string,
  params: unknown[],
  page = 1,
): Case['sql'] {
  return [
    [RIGHTS_ON_CORPUS, [token, corpusId]],
    [
      `SELECT count(*) AS n FROM elements e WHERE e.corpus_id = $1 AND ${where}`,
      [corpusId, ...params],
    ],
    [
      `SELECT ${ROW} FROM elements e ${JOINS} WHERE e.corpus_id = $1 AND ${where}
       ORDER BY e.name, e.id LIMIT 20 OFFSET ${(page - 1) * 20}`,
      [corpusId, ...params],
    ],
  ];
}

/** The best the schema offers for a substring of names: the trigram index of each database. */
function nameCondition(raw: RawDriver): string {
  return raw.dialect === 'sqlite'
    ? 'e.rowid IN (SELECT rowid FROM element_names WHERE name LIKE $2)'
    : 'lower(e.name) LIKE lower($2)';
}

function cases(
  raw: RawDriver,
  token: string,
  corpusId: string,
  types: Record<string, string>,
): Case[] {
  const pages = FOLDERS * PAGES_PER_FOLDER;
  const folder = folderId(Math.floor(FOLDERS / 2));
  const page = pageId(Math.floor(pages / 2));
  const deep = Math.min(150, Math.floor(pages / 20));
  const base = `/api/v1/corpus/${corpusId}/elements/`;
  const rare = pageName(Math.floor(pages / 3));
  const recursiveWalk = `WITH RECURSIVE walk(id, depth, position) AS (
      SELECT child_id, 1, position FROM element_links WHERE parent_id = $1
      UNION SELECT l.child_id, walk.depth + 1, l.position
      FROM element_links l JOIN walk ON l.parent_id = walk.id WHERE walk.depth < 100)`;
  return [
    {
      label: 'element detail (a page)',
      url: `/api/v1/element/${page}/`,
      sql: [
        [RIGHTS_ON_ELEMENT, [token, page]],
        [
          `SELECT ${ROW}, c.name AS corpus_name, c.public AS corpus_public FROM elements e
           ${JOINS} JOIN corpora c ON c.id = e.corpus_id WHERE e.id = $1`,
          [page],
        ],
        [
          `SELECT cl.*, mc.name FROM classifications cl JOIN ml_classes mc
           ON mc.id = cl.ml_class_id WHERE cl.element_id = $1`,
          [page],
        ],
        ['SELECT EXISTS (SELECT 1 FROM element_links WHERE parent_id = $1) AS has', [page]],
        ['SELECT count(*) AS n FROM metadata WHERE element_id = $1', [page]],
      ],
    },
    {
      label: `children of a page (${LINES_PER_PAGE} lines, page_size 100)`,
      url: `/api/v1/elements/${page}/children/?page_size=100`,
      sql: children(token, page, 100, 1),
    },
    {
      label: 'children of a folder (20)',
      url: `/api/v1/elements/${folder}/children/`,
      sql: children(token, folder, 20, 1),
    },
    {
      label: 'children of a folder, page 9',
      url: `/api/v1/elements/${folder}/children/?page=9`,
      sql: children(token, folder, 20, 9),
    },
    {
      label: 'recursive children of a folder, type=page',
      url: `/api/v1/elements/${folder}/children/?recursive=true&type=page`,
      sql: [
        [RIGHTS_ON_ELEMENT, [token, folder]],
        [
          `${recursiveWalk} SELECT count(*) AS n FROM (SELECT DISTINCT id FROM walk) w
           JOIN elements e ON e.id = w.id WHERE e.type_id = $2`,
          [folder, types.page],
        ],
        [
          `${recursiveWalk} SELECT ${ROW} FROM (SELECT id, MIN(depth) AS depth,
           MIN(position) AS position FROM walk GROUP BY id) w JOIN elements e ON e.id = w.id
           ${JOINS} WHERE e.type_id = $2 ORDER BY w.depth, w.position, e.id LIMIT 20`,
          [folder, types.page],
        ],
      ],
    },
    {
      label: 'project list, top_level=true',
      url: `${base}?top_level=true`,
      sql: corpusList(token, corpusId, 'e.top_level = 1', []),
    },
    {
      label: 'project list, type=page, page 1',
      url: `${base}?type=page`,
      sql: corpusList(token, corpusId, 'e.type_id = $2', [types.page]),
    },
    {
      label: `project list, type=page, page ${deep}`,
      url: `${base}?type=page&page=${deep}`,
      sql: corpusList(token, corpusId, 'e.type_id = $2', [types.page], deep),
    },
    {
      label: `project list, name=${rare} (1 match)`,
      url: `${base}?name=${encodeURIComponent(rare)}`,
      sql: corpusList(token, corpusId, nameCondition(raw), [`%${rare}%`]),
    },
    {
      label: 'project list, name=Page 0001 (100 matches)',
      url: `${base}?name=${encodeURIComponent('Page 0001')}`,
      sql: corpusList(token, corpusId, nameCondition(raw), ['%Page 0001%']),
    },
  ];
}

/**
 * A lean client, so the API side times the server more than the client: node:http over
 * kept-alive connections, the whole body read. No compression asked for: over loopback it only
 * costs; its cost is printed on its own (GZIP_CASE).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function request(
  server: ChildServer,
  url: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = http.request(`${server.url}${url}`, { method, headers, agent }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(parts).toString() }),
      );
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

async function get(server: ChildServer, url: string, headers: Record<string, string>) {
  const response = await request(server, url, headers);
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${response.body}`);
  return response.body;
}

/**
 * The deep page of the type=page list reached as a client following `next` reaches it: with
 * the cursor of the page before, against the same rows read by key on the database.
 */
async function cursorCase(
  server: ChildServer,
  headers: Record<string, string>,
  token: string,
  corpusId: string,
  pageType: string,
): Promise<Case> {
  const deep = Math.min(150, Math.floor((FOLDERS * PAGES_PER_FOLDER) / 20));
  const base = `/api/v1/corpus/${corpusId}/elements/?type=page`;
  const before = JSON.parse(await get(server, `${base}&page=${deep - 1}`, headers)) as {
    next: string;
  };
  const next = new URL(before.next);
  const [, , name, id] = JSON.parse(
    Buffer.from(next.searchParams.get('cursor')!, 'base64url').toString(),
  ) as [number, number, string, string];
  // What following next needs: no count (the cursor carries the first page's), the rows after
  // the key and one more to know whether a page follows.
  return {
    label: `project list, type=page, page ${deep} by its next link`,
    url: `${next.pathname}${next.search}`,
    sql: [
      [RIGHTS_ON_CORPUS, [token, corpusId]],
      [
        `SELECT ${ROW} FROM elements e ${JOINS} WHERE e.corpus_id = $1 AND e.type_id = $2
         AND (e.name, e.id) > ($3, $4) ORDER BY e.name, e.id LIMIT 21`,
        [corpusId, pageType, name, id],
      ],
    ],
  };
}

/** The median time of JSON.stringify on the answer's data, as the server's last step. */
function stringifyMs(body: string): number {
  const data: unknown = JSON.parse(body);
  const times: number[] = [];
  for (let i = 0; i < 50; i += 1) {
    const t0 = performance.now();
    JSON.stringify(data);
    times.push(performance.now() - t0);
  }
  return median(times);
}

async function runSql(raw: RawDriver, statements: Case['sql']) {
  for (const [text, params] of statements) await raw.all(text, params);
}

interface LoadFigure {
  label: string;
  reads: number;
  readsPerSecond: number;
  p50: number;
  p99: number;
  writesPerSecond: number;
}

/** `readers` loops reading children of random pages, `writers` loops renaming random lines. */
async function load(
  server: ChildServer,
  headers: Record<string, string>,
  readers: number,
  writers: number,
): Promise<LoadFigure> {
  const pages = FOLDERS * PAGES_PER_FOLDER;
  const until = performance.now() + LOAD_SECONDS * 1000;
  const times: number[] = [];
  let writes = 0;
  const random = (n: number) => Math.floor(Math.random() * n);
  const reader = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      await get(
        server,
        `/api/v1/elements/${pageId(random(pages))}/children/?page_size=100`,
        headers,
      );
      times.push(performance.now() - t0);
    }
  };
  const writer = async () => {
    while (performance.now() < until) {
      const id = lineId(random(pages * LINES_PER_PAGE));
      const response = await request(
        server,
        `/api/v1/element/${id}/`,
        { ...headers, 'content-type': 'application/json' },
        'PATCH',
        JSON.stringify({ name: `Renamed ${writes}` }),
      );
      if (response.status !== 200) throw new Error(`PATCH ${id}: ${response.status}`);
      writes += 1;
    }
  };
  const t0 = performance.now();
  await Promise.all([
    ...Array.from({ length: readers }, reader),
    ...Array.from({ length: writers }, writer),
  ]);
  const seconds = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return {
    label: `${readers} readers${writers ? ` + ${writers} writers` : ''}`,
    reads: times.length,
    readsPerSecond: times.length / seconds,
    p50: median(times),
    p99: times[Math.floor(times.length * 0.99)] ?? 0,
    writesPerSecond: writes / seconds,
  };
}

async function benchDialect(dialect: DialectName): Promise<void> {
  const throwaway = await makeThrowawayApp(dialect, { label: 'bench' });
  let server: ChildServer | null = null;
  let raw: RawDriver | null = null;
  try {
    const { app, config } = throwaway;
    const user = await seedUser(app);
    const corpusId = await seedProject(app, user, 'Elements');
    const typeRows = await app.db
      .selectFrom('element_types')
      .select(['id', 'slug'])
      .where('corpus_id', '=', corpusId)
      .execute();
    const types = Object.fromEntries(typeRows.map((row) => [row.slug, row.id]));
    await app.db
      .updateTable('corpora')
      .set({ top_level_type: 'folder' })
      .where('id', '=', corpusId)
      .execute();
    const driver = await openRaw(config as Config);
    raw = driver;
    console.log(`\n${dialect}: loading ${elementsFor(FOLDERS).toLocaleString('en')} elements…`);
    await loadProject(driver, { corpusId, types, folders: FOLDERS, log: (l) => console.log(l) });
    server = await startChildServer(config);
    const token = user.headers.authorization.replace('Token ', '');
    const headers = user.headers;

    const floor = await pairsWithin(
      'HTTP floor: GET /api/v1/ (authenticates, no rows)',
      () => get(server!, '/api/v1/', headers),
      () => raw!.all('SELECT id FROM users WHERE auth_token = $1 AND is_active = 1', [token]),
    );
    const figures: PairFigure[] = [];
    const all = cases(driver, token, corpusId, types);
    all.push(await cursorCase(server, headers, token, corpusId, types.page!));
    // The answer's size, and what turning it into JSON text alone costs in Node: a share of
    // the distance the SQL side does not pay.
    // And the same call answered in this process (app.inject on the same database, no socket):
    // the server's own code apart from the HTTP transport and the client.
    const bodies = new Map<PairFigure, { kb: number; jsonMs: number; injectMs: number }>();
    for (const item of all) {
      let body = '';
      const figure = await pairsWithin(
        item.label,
        async () => (body = await get(server!, item.url, headers)),
        () => runSql(raw!, item.sql),
      );
      figures.push(figure);
      const inProcess = await pairsWithin(
        `${item.label} in process`,
        async () => {
          const answer = await app.inject({ url: item.url, headers });
          if (answer.statusCode !== 200) throw new Error(`${item.url}: ${answer.body}`);
        },
        () => runSql(raw!, item.sql),
      );
      bodies.set(figure, {
        kb: Buffer.byteLength(body) / 1024,
        jsonMs: stringifyMs(body),
        injectMs: inProcess.aMs,
      });
      console.log(`  measured ${item.label}`);
    }
    const [, , folderCase] = cases(driver, token, corpusId, types);
    const gzip = await pairsWithin(
      `${folderCase!.label}, gzip asked: gzip / identity`,
      () => get(server!, folderCase!.url, { ...headers, 'accept-encoding': 'gzip' }),
      () => get(server!, folderCase!.url, headers),
    );
    console.log('');
    printRows(
      [
        'case (medians of alternated pairs)',
        'pairs',
        'API ms',
        'SQL ms',
        'API/SQL',
        'goal',
        '(API−floor)/SQL',
        'KB',
        'JSON ms',
        'in process ms',
      ],
      [floor, ...figures].map((f) => [
        f.label,
        String(f.pairs),
        ms(f.aMs),
        ms(f.bMs),
        `${f.ratio.toFixed(2)}×`,
        f === floor ? '' : f.ratio <= GOAL ? `≤ ${GOAL} met` : `≤ ${GOAL} missed`,
        f === floor ? '' : `${(Math.max(0, f.aMs - floor.aMs) / f.bMs).toFixed(2)}×`,
        bodies.has(f) ? bodies.get(f)!.kb.toFixed(1) : '',
        bodies.has(f) ? ms(bodies.get(f)!.jsonMs) : '',
        bodies.has(f) ? ms(bodies.get(f)!.injectMs) : '',
      ]),
    );

    // Where a missed goal's distance goes: what 1.5× of its SQL leaves for everything else,
    // against the HTTP floor and the server's own work measured in process (no socket).
    for (const f of figures.filter((figure) => figure.ratio > GOAL)) {
      const inProcess = bodies.get(f)!.injectMs;
      console.log(
        `  ${f.label}: ${GOAL}× leaves ${ms(f.bMs * (GOAL - 1))} ms beyond its SQL; the HTTP ` +
          `round trip alone takes ${ms(floor.aMs)} ms, the server's code in process ` +
          `${ms(Math.max(0, inProcess - f.bMs))} ms`,
      );
    }

    // What one query costs through the server's own path (query builder, driver wrapper,
    // promises) beyond the bare driver: the part of the distance that grows with the number of
    // queries a call makes, measured in this process on the same database.
    const samplePage = pageId(Math.floor((FOLDERS * PAGES_PER_FOLDER) / 2));
    const perQuery = await pairsWithin(
      'one element by id: query builder / bare driver',
      () => app.db.selectFrom('elements').selectAll().where('id', '=', samplePage).execute(),
      () => raw!.all('SELECT * FROM elements WHERE id = $1', [samplePage]),
    );
    console.log(
      `per query: ${perQuery.label} ${ms(perQuery.aMs)} vs ${ms(perQuery.bMs)} ms ` +
        `(+${ms(perQuery.aMs - perQuery.bMs)} ms a query; a detail or a list makes 3)`,
    );
    console.log(
      `compression: ${gzip.label} ${ms(gzip.aMs)} vs ${ms(gzip.bMs)} ms (${gzip.ratio.toFixed(2)}×): ` +
        'what a client asking for gzip pays over loopback for a tenth of the bytes on a real link',
    );
    console.log(`\nload, ${LOAD_SECONDS} s each: children of random pages (page_size 100)`);
    const alone = await load(server, headers, 32, 0);
    const mixed = await load(server, headers, 32, 8);
    printRows(
      ['connections', 'reads', 'reads/s', 'p50 ms', 'p99 ms', 'writes/s'],
      [alone, mixed].map((f) => [
        f.label,
        String(f.reads),
        f.readsPerSecond.toFixed(0),
        ms(f.p50),
        ms(f.p99),
        f.writesPerSecond.toFixed(0),
      ]),
    );
    console.log(
      `reads with writers / reads alone: ${(mixed.readsPerSecond / alone.readsPerSecond).toFixed(2)}× (goal: keep their speed, ≥ 0.8×)`,
    );
  } finally {
    await raw?.close();
    await stopBench(server, throwaway);
  }
}

export async function run(): Promise<void> {
  await onEachDialect(async (dialect) => {
    if (!DIALECT || DIALECT === dialect) await benchDialect(dialect);
  });
}
