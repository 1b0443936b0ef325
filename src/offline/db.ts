import Dexie, { type EntityTable } from 'dexie';

/** A persisted UI query (server info, current user…), one row per query. */
export interface PersistedQueryRow {
  key: string;
  value: string;
}

/**
 * The app's one IndexedDB database. Versions only ever grow; each new version declares the
 * tables it adds or changes, and Dexie migrates an older database on open.
 */
export class FoliaDatabase extends Dexie {
  queries!: EntityTable<PersistedQueryRow, 'key'>;

  constructor(name = 'folia') {
    super(name);
    this.version(1).stores({ queries: 'key' });
  }
}

export const localDb = new FoliaDatabase();
