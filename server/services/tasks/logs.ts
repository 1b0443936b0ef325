/**
 * A task's log is kept in its row, bounded: only the last MAX_LOG_BYTES are kept, cut at a line
 * start, so a chatty worker cannot fill the database and the page still shows how it ended.
 */
import type { Db, Dialect } from '../../db';
import { nowIso } from '../../clock';

export const MAX_LOG_BYTES = 1024 * 1024;
export const LOG_CUT_LINE = '[… earlier output removed …]\n';

/** The last MAX_LOG_BYTES of `text`, from a line start, after one line telling text was cut. */
export function boundLog(text: string, max = MAX_LOG_BYTES): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  const room = max - Buffer.byteLength(LOG_CUT_LINE);
  let tail = bytes.subarray(bytes.length - room);
  const newline = tail.indexOf(0x0a);
  // Without a line break in the tail, the tail itself is kept rather than nothing at all.
  if (newline !== -1 && newline < tail.length - 1) tail = tail.subarray(newline + 1);
  // A cut inside a multi-byte character leaves continuation bytes: drop them.
  let start = 0;
  while (start < tail.length && (tail[start]! & 0xc0) === 0x80) start += 1;
  return LOG_CUT_LINE + tail.subarray(start).toString('utf8');
}

/**
 * Appends to a task's log. The row is read and written in one transaction, locked on
 * PostgreSQL, so two appends at once both land (SQLite runs one writer at a time).
 */
export async function appendTaskLog(
  db: Db,
  dialect: Dialect,
  taskId: string,
  text: string,
): Promise<void> {
  if (text === '') return;
  await db.transaction().execute((trx) => appendLogIn(trx, dialect, taskId, text));
}

/** appendTaskLog within a transaction the caller holds. */
export async function appendLogIn(
  trx: Db,
  dialect: Dialect,
  taskId: string,
  text: string,
): Promise<void> {
  let query = trx.selectFrom('tasks').select('logs').where('id', '=', taskId);
  if (dialect === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) return;
  await trx
    .updateTable('tasks')
    .set({ logs: boundLog(row.logs + text), updated: nowIso() })
    .where('id', '=', taskId)
    .execute();
}

/** A line of the server's own in a task's log, ending with a line break. */
export function logLine(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}
