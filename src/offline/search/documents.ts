/**
 * The searchable texts ("documents") of a project as this device holds them: the same five
 * sources as the server's index (element name, transcription text, metadata value,
 * classification class name, entity text), each with the hit the server would answer for it,
 * filled with what the device knows.
 *
 * Read from the local store (db.ts) through table names only, so the Web Worker opens the
 * database without its schema: elements of the project (packs, visited pages, created here),
 * their transcriptions and metadata by owner, classifications inside the element rows
 * (`classifications` of a full element, else `classes` of a list item), and the entities of a
 * transcription when its stored row carries them (`entities`, the items of
 * GET /transcription/{id}/entities/).
 */
import type { Dexie } from 'dexie';
import type { SearchHit, SearchSource } from '@/api/search';
import type {
  Corpus,
  Element,
  ElementClassification,
  ElementListItem,
  ElementMetadataItem,
  Transcription,
  TranscriptionEntity,
  WorkerRunSummary,
} from '@/api/types';

/** An entity as its transcription's entity list gives it (it has an id there). */
type StoredEntity = TranscriptionEntity & { id?: string };
type StoredTranscription = Transcription & { entities?: StoredEntity[] };

interface ElementRow {
  id: string;
  corpusId: string;
  data: ElementListItem | Element;
  full: boolean;
  parentIds: string[];
}

interface RecordRow<T> {
  id: string;
  ownerId: string;
  data: T;
}

export interface SearchDocument {
  /** `${source}:${item id}`, as the hit's id. */
  id: string;
  source: SearchSource;
  text: string;
  elementId: string;
  elementType: string;
  elementName: string;
  workerRun: WorkerRunSummary | null;
  classificationName: string | null;
  metadataName: string | null;
  entityType: string | null;
  hit: SearchHit;
}

export interface ProjectDocuments {
  documents: SearchDocument[];
  /** Element type slug → display name, for the facet labels. */
  typeNames: Map<string, string>;
}

const EMPTY_HIT_FIELDS = {
  transcription_id: null,
  transcription_text: null,
  transcription_confidence: null,
  classification_id: null,
  classification_name: null,
  classification_confidence: null,
  metadata_id: null,
  metadata_type: null,
  metadata_name: null,
  metadata_text: null,
  transcription_entity_id: null,
  transcription_entity_text: null,
  transcription_entity_type: null,
} as const;

/**
 * The parent a hit names: among the parents this device knows, the nearest (one that is not
 * itself an ancestor of another known parent: a recursive list records the page as a parent of
 * a line inside a region).
 */
function nearestParent(row: ElementRow, rows: Map<string, ElementRow>): ElementRow | null {
  const known = row.parentIds.map((id) => rows.get(id)).filter((p): p is ElementRow => !!p);
  const nearest = known.find(
    (candidate) =>
      !known.some((other) => other !== candidate && other.parentIds.includes(candidate.id)),
  );
  return nearest ?? known[0] ?? null;
}

/** The area of a zone's bounding box: a page's zone holds the zones drawn on it. */
function zoneArea(row: ElementRow): number {
  const polygon = row.data.zone?.polygon;
  if (!polygon?.length) return 0;
  const xs = polygon.map((point) => point[0]);
  const ys = polygon.map((point) => point[1]);
  return (Math.max(...xs) - Math.min(...xs)) * (Math.max(...ys) - Math.min(...ys));
}

/**
 * The element to open for a hit, as the server defines it: the highest ancestor on the same
 * image (the known ancestors, through every known parent), else the element itself. A line
 * listed recursively names both its region and its page as parents, both one step up: the
 * highest is then the one no other ancestor on the image holds, and where the device does not
 * know that link, the one whose zone is the largest (a page's zone holds its regions').
 */
function pageOf(row: ElementRow, rows: Map<string, ElementRow>): string {
  const image = row.data.zone?.image.id;
  if (!image) return row.id;
  const ancestors = new Map<string, { row: ElementRow; depth: number }>();
  const seen = new Set([row.id]);
  let level = [row];
  for (let depth = 1; level.length > 0 && depth <= 64; depth += 1) {
    const next: ElementRow[] = [];
    for (const child of level) {
      for (const parentId of child.parentIds) {
        const parent = rows.get(parentId);
        if (!parent || seen.has(parent.id)) continue;
        seen.add(parent.id);
        next.push(parent);
        if (parent.data.zone?.image.id === image) ancestors.set(parent.id, { row: parent, depth });
      }
    }
    level = next;
  }
  const tops = [...ancestors.values()].filter(
    ({ row: ancestor }) => !ancestor.parentIds.some((id) => ancestors.has(id)),
  );
  const best = tops.sort(
    (a, b) =>
      b.depth - a.depth ||
      zoneArea(b.row) - zoneArea(a.row) ||
      (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0),
  )[0];
  return best?.row.id ?? row.id;
}

function classificationsOf(row: ElementRow): ElementClassification[] {
  const data = row.data as Element;
  if (Array.isArray(data.classifications)) return data.classifications;
  return row.data.classes ?? [];
}

/** Reads and builds the documents of one project. */
export async function buildProjectDocuments(
  db: Dexie,
  corpusId: string,
): Promise<ProjectDocuments> {
  const [corpus, elementRows] = await Promise.all([
    db.table<{ id: string; data: Corpus }>('corpora').get(corpusId),
    db.table<ElementRow>('elements').where('corpusId').equals(corpusId).toArray(),
  ]);
  const typeNames = new Map((corpus?.data.types ?? []).map((t) => [t.slug, t.display_name]));
  const rows = new Map(elementRows.map((row) => [row.id, row]));
  // Whole tables, kept by owner: one pass is far quicker than an index lookup per element
  // (anyOf over thousands of ids), and other projects' rows are few beside a pack's.
  const [allTranscriptions, allMetadata, metadataMarkers] = await Promise.all([
    db.table<RecordRow<StoredTranscription>>('transcriptions').toArray(),
    db.table<RecordRow<ElementMetadataItem>>('metadata').toArray(),
    db.table<{ key: string }>('lists').where('key').startsWith('records:metadata:').primaryKeys(),
  ]);
  const transcriptions = allTranscriptions.filter((record) => rows.has(record.ownerId));
  const metadata = allMetadata.filter((record) => rows.has(record.ownerId));
  const metadataRead = new Set(
    (metadataMarkers as string[]).map((key) => key.slice('records:metadata:'.length)),
  );
  const metadataByOwner = new Map<string, ElementMetadataItem[]>();
  for (const record of metadata) {
    const list = metadataByOwner.get(record.ownerId) ?? [];
    list.push(record.data);
    metadataByOwner.set(record.ownerId, list);
  }

  const documents: SearchDocument[] = [];
  const base = new Map<
    string,
    Omit<SearchDocument, 'id' | 'source' | 'text' | 'hit'> & {
      hit: Omit<SearchHit, 'id' | 'source'>;
    }
  >();
  for (const row of elementRows) {
    const data = row.data;
    const parent = nearestParent(row, rows);
    const page = rows.get(pageOf(row, rows)) ?? row;
    base.set(row.id, {
      elementId: row.id,
      elementType: data.type,
      elementName: data.name,
      workerRun: data.worker_run ?? null,
      classificationName: null,
      metadataName: null,
      entityType: null,
      hit: {
        element_id: row.id,
        element_type: data.type,
        element_text: data.name,
        element_image: data.zone?.image.url ?? null,
        element_polygon: data.zone?.polygon ?? null,
        page_id: page.id,
        page_name: page.data.name,
        parent_id: parent?.id ?? null,
        parent_type: parent?.data.type ?? null,
        parent_name: parent?.data.name ?? null,
        worker_run_id: data.worker_run?.id ?? null,
        ...EMPTY_HIT_FIELDS,
      },
    });
  }

  const add = (
    elementId: string,
    source: SearchSource,
    itemId: string,
    text: string,
    extra: Partial<SearchDocument>,
    hit: Partial<SearchHit>,
  ) => {
    const element = base.get(elementId);
    if (!element) return;
    const id = `${source}:${itemId}`;
    documents.push({
      ...element,
      ...extra,
      id,
      source,
      text,
      hit: { ...element.hit, ...hit, id, source } as SearchHit,
    });
  };

  for (const row of elementRows) {
    add(row.id, 'element', row.id, row.data.name, {}, {});
    for (const classification of classificationsOf(row)) {
      const name = classification.ml_class.name;
      add(
        row.id,
        'classification',
        classification.id,
        name,
        { workerRun: classification.worker_run ?? null, classificationName: name },
        {
          worker_run_id: classification.worker_run?.id ?? null,
          classification_id: classification.id,
          classification_name: name,
          classification_confidence: classification.confidence ?? null,
        },
      );
    }
    // The stored list once read (local edits applied to it); else what a list item carried.
    const items = metadataRead.has(row.id)
      ? (metadataByOwner.get(row.id) ?? [])
      : (metadataByOwner.get(row.id) ?? row.data.metadata ?? []);
    for (const item of items) {
      add(
        row.id,
        'metadata',
        item.id,
        item.value,
        { workerRun: item.worker_run ?? null, metadataName: item.name },
        {
          worker_run_id: item.worker_run?.id ?? null,
          metadata_id: item.id,
          metadata_type: item.type,
          metadata_name: item.name,
          metadata_text: item.value,
        },
      );
    }
  }

  for (const record of transcriptions) {
    const transcription = record.data;
    add(
      record.ownerId,
      'transcription',
      transcription.id,
      transcription.text,
      { workerRun: transcription.worker_run ?? null },
      {
        worker_run_id: transcription.worker_run?.id ?? null,
        transcription_id: transcription.id,
        transcription_text: transcription.text,
        transcription_confidence: transcription.confidence ?? null,
      },
    );
    for (const entity of transcription.entities ?? []) {
      if (!entity.id) continue;
      // Offsets and lengths count code points, as the server's.
      const text = Array.from(transcription.text)
        .slice(entity.offset, entity.offset + entity.length)
        .join('');
      add(
        record.ownerId,
        'transcription_entity',
        entity.id,
        text,
        { workerRun: entity.worker_run ?? null, entityType: entity.type.name },
        {
          worker_run_id: entity.worker_run?.id ?? null,
          transcription_entity_id: entity.id,
          transcription_entity_text: text,
          transcription_entity_type: entity.type.name,
        },
      );
    }
  }
  return { documents, typeNames };
}
