// Frozen once landed: never edit, add a new migration instead. Imports no app code.
import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/** Columns a process gains: its element filters, its template, where and how it runs. */
const PROCESS_TEXT_COLUMNS = [
  'element_id',
  'element_type',
  'element_name_contains',
  'ml_class_id',
  'template_id',
  'farm_id',
  'updated',
];

/**
 * Processes that really run, as in Arkindex: a process selects elements by filters (or a
 * selection copied at creation), is started into tasks grouped by run, and tasks run on agents
 * that belong to farms. Logs and artifacts belong to tasks. A task token lets the program a task
 * runs call the API as the process' creator, limited to its project.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of PROCESS_TEXT_COLUMNS) {
    await db.schema.alterTable('processes').addColumn(column, 'text').execute();
  }
  await db.schema
    .alterTable('processes')
    .addColumn('load_children', 'text', (col) => col.notNull().defaultTo('none'))
    .execute();
  await db.schema
    .alterTable('processes')
    .addColumn('chunks', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('processes')
    .addColumn('use_gpu', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('processes')
    .addColumn('activity_state', 'text', (col) => col.notNull().defaultTo('disabled'))
    .execute();

  // Elements a process was made from (a user's selection at creation time).
  await db.schema
    .createTable('process_elements')
    .addColumn('process_id', 'text', (col) =>
      col.notNull().references('processes.id').onDelete('cascade'),
    )
    .addColumn('element_id', 'text', (col) =>
      col.notNull().references('elements.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('process_elements_pk', ['process_id', 'element_id'])
    .execute();

  await db.schema
    .createTable('farms')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull().unique())
    // The secret agents of this farm present to register (Authorization: Farm <token>).
    .addColumn('token', 'text', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .execute();
  await sql`insert into farms (id, name, token, created)
    values (${randomUUID()}, ${'Default farm'}, ${randomBytes(24).toString('hex')},
            ${new Date().toISOString()})`.execute(db);

  await db.schema
    .createTable('agents')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('farm_id', 'text', (col) => col.notNull().references('farms.id').onDelete('cascade'))
    .addColumn('hostname', 'text', (col) => col.notNull())
    // SHA-256 of the agent's own token, given once at registration.
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('slots', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('cpu_cores', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('ram_total', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('gpus', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_ping', 'text', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('tasks')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('process_id', 'text', (col) =>
      col.notNull().references('processes.id').onDelete('cascade'),
    )
    .addColumn('run', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('depth', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('slug', 'text', (col) => col.notNull())
    // worker: claimed by agents; import: run by the server's jobs queue (built-in work).
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('worker'))
    .addColumn('state', 'text', (col) => col.notNull().defaultTo('unscheduled'))
    // JSON array of task ids this one waits for.
    .addColumn('parents', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('worker_run_id', 'text', (col) =>
      col.references('worker_runs.id').onDelete('set null'),
    )
    // JSON array of the element ids of this task's chunk.
    .addColumn('elements', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('chunk', 'integer')
    .addColumn('original_task_id', 'text')
    .addColumn('requires_gpu', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('agent_id', 'text', (col) => col.references('agents.id').onDelete('set null'))
    // SHA-256 of the task token handed to the agent at claim time.
    .addColumn('token_hash', 'text')
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    // The tail of the task's log, bounded in size by the server.
    .addColumn('logs', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .addColumn('started', 'text')
    .addColumn('finished', 'text')
    .execute();
  await db.schema.createIndex('tasks_process').on('tasks').columns(['process_id', 'run']).execute();
  await db.schema.createIndex('tasks_state').on('tasks').columns(['state', 'created']).execute();
  await db.schema.createIndex('tasks_agent').on('tasks').column('agent_id').execute();
  await db.schema.createIndex('tasks_token').on('tasks').column('token_hash').execute();
  // A process' state skips tasks replaced by a restart: found by their copies' original id.
  await db.schema.createIndex('tasks_original').on('tasks').column('original_task_id').execute();

  await db.schema
    .createTable('task_artifacts')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('task_id', 'text', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('path', 'text', (col) => col.notNull())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('created', 'text', (col) => col.notNull())
    .addColumn('updated', 'text', (col) => col.notNull())
    .addUniqueConstraint('task_artifacts_task_path', ['task_id', 'path'])
    .execute();

  await db.schema
    .createIndex('processes_corpus_created')
    .on('processes')
    .columns(['corpus_id', 'created'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('processes_corpus_created').execute();
  await db.schema.dropTable('task_artifacts').execute();
  await db.schema.dropTable('tasks').execute();
  await db.schema.dropTable('agents').execute();
  await db.schema.dropTable('farms').execute();
  await db.schema.dropTable('process_elements').execute();
  for (const column of [
    ...PROCESS_TEXT_COLUMNS,
    'load_children',
    'chunks',
    'use_gpu',
    'activity_state',
  ]) {
    await db.schema.alterTable('processes').dropColumn(column).execute();
  }
}
