// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import { randomUUID } from 'node:crypto';
import { SqliteAdapter, sql, type Kysely } from 'kysely';

/** The worker types every instance knows, with the names the app shows. */
const WORKER_TYPES: [slug: string, displayName: string][] = [
  ['classifier', 'Classifier'],
  ['recognizer', 'Recognizer'],
  ['ner', 'NER'],
  ['dla', 'Document layout analysis'],
  ['word-segmenter', 'Word segmenter'],
  ['paragraph-creator', 'Paragraph creator'],
];

/**
 * Workers as their authors publish them: worker types, what Arkindex records of a version (git
 * revision URL, branch, tag, GPU and model usage, Docker image, the feature it provides),
 * per-element activities reported by running workers, and local processes — a person's own
 * worker runs, outside any project, so a process's project becomes optional.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('worker_types')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('display_name', 'text', (col) => col.notNull())
    .execute();
  const seeded = new Set(WORKER_TYPES.map(([slug]) => slug));
  // Types already used by workers (the file import worker's) get a row of their own.
  const { rows } = await sql<{ type: string }>`select distinct type from workers`.execute(db);
  const types = [
    ...WORKER_TYPES,
    ...rows
      .filter((row) => !seeded.has(row.type))
      .map((row): [string, string] => [row.type, row.type]),
  ];
  for (const [slug, displayName] of types) {
    await sql`insert into worker_types (id, slug, display_name)
      values (${randomUUID()}, ${slug}, ${displayName})`.execute(db);
  }

  for (const column of ['revision_url', 'branch', 'tag', 'docker_image_iid', 'feature']) {
    await db.schema.alterTable('worker_versions').addColumn(column, 'text').execute();
  }
  for (const column of ['gpu_usage', 'model_usage']) {
    await db.schema
      .alterTable('worker_versions')
      .addColumn(column, 'text', (col) => col.notNull().defaultTo('disabled'))
      .execute();
  }
  await db.schema
    .createIndex('worker_versions_worker')
    .on('worker_versions')
    .columns(['worker_id', 'created'])
    .execute();
  await db.schema
    .createIndex('worker_configurations_worker')
    .on('worker_configurations')
    .columns(['worker_id', 'name'])
    .execute();

  await db.schema
    .createTable('worker_activities')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('worker_run_id', 'text', (col) =>
      col.notNull().references('worker_runs.id').onDelete('cascade'),
    )
    .addColumn('element_id', 'text', (col) =>
      col.notNull().references('elements.id').onDelete('cascade'),
    )
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .addUniqueConstraint('worker_activities_run_element', ['worker_run_id', 'element_id'])
    .execute();
  await db.schema
    .createIndex('worker_activities_element')
    .on('worker_activities')
    .column('element_id')
    .execute();

  await makeProcessCorpusOptional(db);
}

/**
 * PostgreSQL drops the constraint in place. SQLite cannot alter a column: the table is rebuilt
 * (its documented twelve-step way) with foreign keys off, so worker runs keep their processes.
 */
async function makeProcessCorpusOptional(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await sql`alter table processes alter column corpus_id drop not null`.execute(db);
    return;
  }
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.schema
      .createTable('processes_rebuilt')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('corpus_id', 'text', (col) => col.references('corpora.id').onDelete('cascade'))
      .addColumn('name', 'text')
      .addColumn('mode', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull().defaultTo('unscheduled'))
      .addColumn('creator_id', 'text', (col) => col.references('users.id').onDelete('set null'))
      .addColumn('created', 'text', (col) => col.notNull())
      .addColumn('started', 'text')
      .addColumn('finished', 'text')
      .execute();
    await sql`insert into processes_rebuilt
      (id, corpus_id, name, mode, state, creator_id, created, started, finished)
      select id, corpus_id, name, mode, state, creator_id, created, started, finished
      from processes`.execute(db);
    await db.schema.dropTable('processes').execute();
    await sql`alter table processes_rebuilt rename to processes`.execute(db);
    await db.schema.createIndex('processes_corpus').on('processes').column('corpus_id').execute();
    const broken = await sql`pragma foreign_key_check`.execute(db);
    if (broken.rows.length) throw new Error('processes rebuild broke foreign keys');
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('worker_activities').execute();
  await db.schema.dropIndex('worker_configurations_worker').execute();
  await db.schema.dropIndex('worker_versions_worker').execute();
  for (const column of [
    'revision_url',
    'branch',
    'tag',
    'docker_image_iid',
    'feature',
    'gpu_usage',
    'model_usage',
  ]) {
    await db.schema.alterTable('worker_versions').dropColumn(column).execute();
  }
  await db.schema.dropTable('worker_types').execute();
}
