import Dexie, { type EntityTable, type Table } from 'dexie';
import type { ElementDatasetSet } from '@/api/datasets';
import type { Corpus, Element, ElementListItem } from '@/api/types';
import { OUTBOX_KINDS } from './kinds';
import type { OutboxEntry } from './outboxEntry';

/** A persisted UI query (server info, current user…), one row per query. */
export interface PersistedQueryRow {
  key: string;
  value: string;
}

/**
 * An element as last seen from the server (a list item or the full element), with what the
 * offline layer needs beside it. Optimistic local edits are applied to it in place; the outbox
 * holds what is still to reach the server.
 */
export interface LocalElement {
  id: string;
  corpusId: string;
  data: ElementListItem | Element;
  /** True when `data` is a full GET /element/{id}/ answer (rights, classifications…). */
  full: boolean;
  /** The Last-Modified of the server version local edits are based on; null: unknown. */
  lastModified: string | null;
  /**
   * The newest Last-Modified the server gave for this element itself (its own read, an edit's
   * answer): a read answering an older one was served from a cache or arrived late.
   */
  confirmed?: string | null;
  /** The Date of the newest server answer this row reflects: an answer dated before is older. */
  seenAt?: string | null;
  /** Created offline and not yet on the server: its id is temporary. */
  local: boolean;
  /** Ids of the parents known to hold it, for "what is in this folder" while offline. */
  parentIds: string[];
  savedAt: number;
}

/** One page-independent children (or project) list: the ids in order, as the server gave them. */
export interface LocalList {
  /** `${scope}:${id}:${query}`, e.g. `children:<uuid>:order=position`. */
  key: string;
  ownerId: string;
  ids: string[];
  count: number;
  lastModified: string | null;
  /** The page's links as the server gave them, to page on offline. */
  page?: { next: string | null; previous: string | null; number?: number };
  savedAt: number;
}

export interface LocalCorpus {
  id: string;
  data: Corpus;
  savedAt: number;
}

/** A temporary id given offline and the server id its creation got on replay. */
export interface IdMapping {
  tempId: string;
  serverId: string;
}

export interface SyncStateRow {
  key: 'lastSync';
  at: number;
}

/**
 * An entity of an element or a project (a transcription, a metadata, an ML class), kept as the
 * API answers it, by owner; local edits are applied to it in place, as to elements.
 */
export interface LocalRecord<T = unknown> {
  id: string;
  ownerId: string;
  data: T;
  savedAt: number;
  /** The Last-Modified of the server version local edits are based on. */
  lastModified?: string | null;
  /** Created here and not yet on the server: its id is temporary. */
  local?: boolean;
  /** The temporary id it had before the server gave its own: what the views keep it under. */
  createdAs?: string;
}

export type PackZoom = 'thumbnail' | 'screen' | 'full';

/**
 * A folder or element made available offline (packs.ts): what was downloaded for it, one row
 * per element (a second download of the same element replaces its row).
 */
export interface PackRow {
  /** The element's id. */
  id: string;
  name: string;
  corpusId: string;
  zoom: PackZoom;
  elementCount: number;
  tileCount: number;
  /** Tiles and element data stored for it, in bytes. */
  bytes: number;
  /** 'incomplete' while it runs, or when it stopped on an error or with the tab closed. */
  status: 'complete' | 'incomplete' | 'cancelled';
  createdAt: number;
}

/**
 * The dataset sets an element is in (GET /element/{id}/sets/?with_neighbors=true), with the
 * additions and removals made here applied at once, as element edits are.
 */
export interface LocalElementSets {
  /** The element's id. */
  id: string;
  sets: ElementDatasetSet[];
  /** The datasets it is in, so renaming a set finds the rows naming it. */
  datasetIds: string[];
  savedAt: number;
}

/** One cached IIIF URL (info.json, tile or thumbnail) a pack holds, so removal knows its own. */
/**
 * An element of the user's selection on this device (spec 001 §4 "Selection"): toggles land
 * here at once and reach the server later; `synced` says the server already agrees. An element
 * unselected here stays as `selected: false` until the server has been told.
 */
export interface LocalSelectionRow {
  id: string;
  userId: string;
  corpusId: string;
  corpusName: string | null;
  /** As the card showed it, so the selection page lists it offline. */
  element: ElementListItem;
  selected: boolean;
  synced: boolean;
  changedAt: number;
}

/** "Unselect all" done on this device and not yet told to the server. */
export interface LocalSelectionClear {
  userId: string;
  at: number;
}

export interface PackTileRow {
  packId: string;
  url: string;
  bytes: number;
}

/**
 * The app's one IndexedDB database. Versions only ever grow; each new version declares the
 * tables it adds or changes, and Dexie migrates an older database on open.
 */
export class FoliaDatabase extends Dexie {
  queries!: EntityTable<PersistedQueryRow, 'key'>;
  elements!: EntityTable<LocalElement, 'id'>;
  lists!: EntityTable<LocalList, 'key'>;
  corpora!: EntityTable<LocalCorpus, 'id'>;
  classes!: EntityTable<LocalRecord, 'id'>;
  metadata!: EntityTable<LocalRecord, 'id'>;
  allowedMetadata!: EntityTable<LocalRecord, 'id'>;
  transcriptions!: EntityTable<LocalRecord, 'id'>;
  datasets!: EntityTable<LocalRecord, 'id'>;
  outbox!: Table<OutboxEntry, number>;
  idMap!: EntityTable<IdMapping, 'tempId'>;
  syncState!: EntityTable<SyncStateRow, 'key'>;
  packs!: EntityTable<PackRow, 'id'>;
  packTiles!: Table<PackTileRow, [string, string]>;
  elementSets!: EntityTable<LocalElementSets, 'id'>;
  selection!: EntityTable<LocalSelectionRow, 'id'>;
  selectionClears!: EntityTable<LocalSelectionClear, 'userId'>;

  constructor(name = 'folia') {
    super(name);
    this.version(1).stores({ queries: 'key' });
    this.version(2).stores({
      elements: 'id, corpusId, *parentIds',
      lists: 'key, ownerId',
      corpora: 'id',
      classes: 'id, ownerId',
      metadata: 'id, ownerId',
      allowedMetadata: 'id, ownerId',
      transcriptions: 'id, ownerId',
      datasets: 'id, ownerId',
      outbox: '++seq, entityId, status',
      idMap: 'tempId, serverId',
      syncState: 'key',
    });
    // Replaying an offline creation rewrites the edits naming its temporary id: an index on
    // those ids instead of a scan of the whole outbox.
    this.version(3)
      .stores({ outbox: '++seq, entityId, status, *refIds' })
      .upgrade((tx) =>
        tx
          .table('outbox')
          .toCollection()
          .modify((entry: OutboxEntry) => {
            entry.refIds = [entry.entityId, ...OUTBOX_KINDS[entry.kind].refs(entry)];
          }),
      );
    // Offline packs, and the cached IIIF URLs each holds: a URL is dropped from the cache only
    // when no other pack holds it.
    this.version(4).stores({
      packs: 'id, createdAt',
      packTiles: '[packId+url], packId, url',
    });
    // The dataset sets of elements (read online, or taken offline with a folder), and the
    // project's datasets by project in the `datasets` table declared in version 2.
    this.version(5).stores({ elementSets: 'id, *datasetIds' });
    // The selection, local first: toggles made offline survive a reload and are sent later.
    this.version(6).stores({ selection: 'id, userId', selectionClears: 'userId' });
  }
}

export const localDb = new FoliaDatabase();
