import path from 'node:path';
import Database from 'better-sqlite3';
import { E2E_DATA_DIR } from '../../playwright.config';

/**
 * Gives a user the "can manage workers" right on the e2e server. No screen or command grants it
 * (a site operator sets it in the database), so the test does the same.
 */
export function grantWorkerManagement(email: string): void {
  const db = new Database(path.join(E2E_DATA_DIR, 'folia.sqlite3'));
  try {
    db.pragma('busy_timeout = 10000');
    const changed = db
      .prepare('UPDATE users SET can_manage_workers = 1 WHERE email = ?')
      .run(email.toLowerCase()).changes;
    if (changed !== 1) throw new Error(`No user ${email} to make a worker manager`);
  } finally {
    db.close();
  }
}
