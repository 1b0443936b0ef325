/**
 * The tables of the Arkindex SQLite project export, format version 11 (api part 2 §1.2–1.3), as
 * the `arkindex-export` library declares them: ids are VARCHAR(37) UUID strings, booleans
 * INTEGER 0/1, dates REAL UNIX timestamps, every column NOT NULL unless marked nullable. Unique
 * constraints and the indexes on foreign-key columns are separate indexes named
 * `<table>_<columns>`, as that library creates them, so its readers find the same file whether
 * Arkindex or Folia wrote it.
 */

export const EXPORT_VERSION = 11;

export interface ExportColumn {
  name: string;
  type: 'VARCHAR(37)' | `VARCHAR(${number})` | 'TEXT' | 'INTEGER' | 'REAL';
  nullable?: boolean;
  /** SQL text of the default, as PRAGMA table_info reports it. */
  default?: string;
  references?: { table: string; column: string };
}

export interface ExportTable {
  name: string;
  columns: ExportColumn[];
  /** Column sets that are unique, each as a UNIQUE index. */
  unique?: string[][];
}

const id: ExportColumn = { name: 'id', type: 'VARCHAR(37)' };
const fk = (name: string, table: string, nullable = false): ExportColumn => ({
  name,
  type: table === 'image_server' ? 'INTEGER' : 'VARCHAR(37)',
  nullable,
  references: { table, column: 'id' },
});
const workerRun = fk('worker_run_id', 'worker_run', true);

export const EXPORT_TABLES: readonly ExportTable[] = [
  { name: 'export_version', columns: [{ name: 'version', type: 'INTEGER' }] },
  {
    name: 'worker_version',
    columns: [
      id,
      { name: 'slug', type: 'VARCHAR(100)' },
      { name: 'name', type: 'VARCHAR(100)' },
      { name: 'type', type: 'VARCHAR(50)' },
      { name: 'repository_url', type: 'VARCHAR(250)', nullable: true },
      { name: 'revision', type: 'VARCHAR(200)', nullable: true },
      { name: 'version', type: 'INTEGER', nullable: true },
    ],
  },
  {
    name: 'worker_run',
    columns: [
      id,
      fk('worker_version_id', 'worker_version'),
      { name: 'model_version_id', type: 'VARCHAR(37)', nullable: true },
      { name: 'model_id', type: 'VARCHAR(37)', nullable: true },
      { name: 'model_name', type: 'VARCHAR(100)', nullable: true },
      { name: 'configuration_id', type: 'VARCHAR(37)', nullable: true },
      { name: 'configuration', type: 'TEXT', nullable: true },
    ],
  },
  {
    name: 'image_server',
    columns: [
      { name: 'id', type: 'INTEGER' },
      { name: 'url', type: 'VARCHAR(200)' },
      { name: 'display_name', type: 'VARCHAR(250)' },
      { name: 'max_width', type: 'INTEGER', nullable: true },
      { name: 'max_height', type: 'INTEGER', nullable: true },
      { name: 'version', type: 'INTEGER', default: '2' },
    ],
    unique: [['url']],
  },
  {
    name: 'image',
    columns: [
      id,
      fk('server_id', 'image_server'),
      { name: 'url', type: 'TEXT' },
      { name: 'width', type: 'INTEGER' },
      { name: 'height', type: 'INTEGER' },
    ],
    unique: [['url']],
  },
  {
    name: 'element',
    columns: [
      id,
      { name: 'created', type: 'REAL' },
      { name: 'updated', type: 'REAL' },
      { name: 'name', type: 'VARCHAR(250)' },
      { name: 'type', type: 'VARCHAR(50)' },
      fk('image_id', 'image', true),
      { name: 'polygon', type: 'TEXT', nullable: true },
      { name: 'rotation_angle', type: 'INTEGER', default: '0' },
      { name: 'mirrored', type: 'INTEGER', default: '0' },
      { name: 'confidence', type: 'REAL', nullable: true },
      workerRun,
    ],
  },
  {
    name: 'element_path',
    columns: [
      id,
      fk('parent_id', 'element'),
      fk('child_id', 'element'),
      { name: 'ordering', type: 'INTEGER', default: '0' },
    ],
    unique: [['parent_id', 'child_id']],
  },
  {
    name: 'transcription',
    columns: [
      id,
      fk('element_id', 'element'),
      { name: 'text', type: 'TEXT' },
      { name: 'confidence', type: 'REAL', nullable: true },
      { name: 'orientation', type: 'TEXT', default: "'horizontal-lr'" },
      workerRun,
    ],
  },
  {
    name: 'classification',
    columns: [
      id,
      fk('element_id', 'element'),
      { name: 'class_name', type: 'VARCHAR(1024)' },
      { name: 'state', type: 'VARCHAR(16)', default: "'pending'" },
      { name: 'moderator', type: 'VARCHAR(255)', nullable: true },
      { name: 'confidence', type: 'REAL' },
      { name: 'high_confidence', type: 'INTEGER', default: '0' },
      workerRun,
    ],
  },
  {
    name: 'entity_type',
    columns: [
      id,
      { name: 'name', type: 'VARCHAR(250)' },
      { name: 'color', type: 'VARCHAR(6)', default: "'ff0000'" },
    ],
    unique: [['name']],
  },
  {
    name: 'transcription_entity',
    columns: [
      id,
      fk('transcription_id', 'transcription'),
      fk('type_id', 'entity_type'),
      { name: 'offset', type: 'INTEGER' },
      { name: 'length', type: 'INTEGER' },
      { name: 'confidence', type: 'REAL', nullable: true },
      workerRun,
    ],
    unique: [['transcription_id', 'type_id', 'offset', 'length', 'worker_run_id']],
  },
  {
    name: 'metadata',
    columns: [
      id,
      fk('element_id', 'element'),
      { name: 'name', type: 'VARCHAR(250)' },
      { name: 'type', type: 'VARCHAR(50)' },
      { name: 'value', type: 'TEXT' },
      workerRun,
    ],
  },
  {
    name: 'dataset',
    columns: [
      id,
      { name: 'name', type: 'VARCHAR(100)' },
      { name: 'description', type: 'TEXT' },
      { name: 'state', type: 'VARCHAR(50)', default: "'open'" },
      { name: 'sets', type: 'TEXT' },
    ],
  },
  {
    name: 'dataset_element',
    columns: [
      id,
      fk('dataset_id', 'dataset'),
      fk('element_id', 'element'),
      { name: 'set_name', type: 'VARCHAR(50)' },
    ],
  },
];

const quote = (name: string) => `"${name}"`;

export const indexName = (table: string, columns: readonly string[]) =>
  `${table}_${columns.join('_')}`;

/** CREATE TABLE of one export table: columns in the documented order, then its foreign keys. */
export function createTableSql(table: ExportTable): string {
  const parts = table.columns.map((column) => {
    let text = `${quote(column.name)} ${column.type}`;
    if (!column.nullable) text += ' NOT NULL';
    if (column.name === 'id') text += ' PRIMARY KEY';
    if (column.default !== undefined) text += ` DEFAULT ${column.default}`;
    return text;
  });
  for (const column of table.columns) {
    if (!column.references) continue;
    const { table: target, column: targetColumn } = column.references;
    parts.push(
      `FOREIGN KEY (${quote(column.name)}) REFERENCES ${quote(target)} (${quote(targetColumn)})`,
    );
  }
  return `CREATE TABLE ${quote(table.name)} (${parts.join(', ')})`;
}

/** The unique indexes: made with the tables, so that duplicates are refused while writing. */
export function uniqueIndexSql(table: ExportTable): string[] {
  return (table.unique ?? []).map(
    (columns) =>
      `CREATE UNIQUE INDEX ${quote(indexName(table.name, columns))} ON ${quote(table.name)} ` +
      `(${columns.map(quote).join(', ')})`,
  );
}

/** One index per foreign-key column: made once the rows are in, which is quicker. */
export function foreignKeyIndexSql(table: ExportTable): string[] {
  return table.columns
    .filter((column) => column.references)
    .map(
      (column) =>
        `CREATE INDEX ${quote(indexName(table.name, [column.name]))} ON ${quote(table.name)} ` +
        `(${quote(column.name)})`,
    );
}
