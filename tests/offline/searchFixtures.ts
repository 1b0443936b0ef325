/**
 * A project's data written into a local database the way the app writes it: the project with
 * its types (packs), elements through storeElements (a children list records its owner as a
 * parent; a page's zones list records the page), metadata through storeListedMetadata (packs'
 * with_metadata list), transcriptions as the rows a transcriptions list stores.
 */
import { randomUUID } from 'node:crypto';
import type {
  Corpus,
  ElementClassification,
  ElementListItem,
  ElementMetadataItem,
  ImageInfo,
  Polygon,
  Transcription,
  TranscriptionEntity,
  WorkerRunSummary,
} from '@/api/types';
import type { FoliaDatabase } from '@/offline/db';
import { storeElements } from '@/offline/elementStore';
import { storeListedMetadata } from '@/offline/entityReads';

export const TYPES = [
  { slug: 'folder', display_name: 'Folder', folder: true },
  { slug: 'page', display_name: 'Page', folder: false },
  { slug: 'text_line', display_name: 'Text line', folder: false },
];

export async function storeCorpus(db: FoliaDatabase, name: string): Promise<string> {
  const id = randomUUID();
  const corpus: Corpus = {
    id,
    name,
    description: '',
    public: false,
    indexable: true,
    created: new Date().toISOString(),
    types: TYPES.map((type) => ({ ...type, id: randomUUID(), color: '28b62c' })),
    rights: ['read', 'write'],
    top_level_type: null,
  };
  await db.corpora.put({ id, data: corpus, savedAt: Date.now() });
  return id;
}

export interface ElementSpec {
  corpusId: string;
  type: string;
  name: string;
  parentId?: string;
  /** An image id and the zone's polygon on it. */
  zone?: { image: string; polygon: Polygon };
  workerRun?: WorkerRunSummary | null;
  classes?: { name: string; confidence?: number | null; workerRun?: WorkerRunSummary | null }[];
  metadata?: { name: string; value: string; type?: string; workerRun?: WorkerRunSummary | null }[];
}

export function imageUrl(image: string): string {
  return `https://iiif.example.org/iiif/2/${image}`;
}

/** Stores one element as a list item of its parent's children list (or a recursive list). */
export async function storeElement(db: FoliaDatabase, spec: ElementSpec): Promise<ElementListItem> {
  const item: ElementListItem = {
    id: randomUUID(),
    type: spec.type,
    name: spec.name,
    corpus: { id: spec.corpusId },
    thumbnail_url: null,
    zone: spec.zone
      ? {
          id: randomUUID(),
          polygon: spec.zone.polygon,
          url: `${imageUrl(spec.zone.image)}/0,0,10,10/full/0/default.jpg`,
          image: {
            id: spec.zone.image,
            path: spec.zone.image,
            width: 2000,
            height: 3000,
            url: imageUrl(spec.zone.image),
            s3_url: null,
            status: 'checked',
            server: {
              display_name: 'Test',
              url: 'https://iiif.example.org/iiif/2/',
              max_width: null,
              max_height: null,
            },
          } satisfies ImageInfo,
        }
      : null,
    rotation_angle: 0,
    mirrored: false,
    confidence: null,
    created: new Date().toISOString(),
    worker_run: spec.workerRun ?? null,
    classes: (spec.classes ?? []).map((c): ElementClassification => ({
      id: randomUUID(),
      ml_class: { id: randomUUID(), name: c.name },
      state: 'pending',
      confidence: c.confidence ?? null,
      high_confidence: false,
      worker_run: c.workerRun ?? null,
    })),
    metadata: (spec.metadata ?? []).map((m): ElementMetadataItem => ({
      id: randomUUID(),
      type: m.type ?? 'text',
      name: m.name,
      value: m.value,
      worker_run: m.workerRun ?? null,
    })),
  };
  await db.transaction('rw', [db.elements, db.outbox], () =>
    storeElements(db, [item], { full: false, parentId: spec.parentId }),
  );
  await storeListedMetadata(db, [item], { lastModified: null, requestedAt: Date.now() });
  return item;
}

export type StoredEntity = TranscriptionEntity & { id: string };

/** Stores transcriptions of an element as its transcriptions list stores them. */
export async function storeTranscription(
  db: FoliaDatabase,
  elementId: string,
  text: string,
  options: {
    confidence?: number | null;
    workerRun?: WorkerRunSummary | null;
    entities?: Omit<StoredEntity, 'id' | 'worker_run' | 'confidence'>[];
  } = {},
): Promise<Transcription & { entities?: StoredEntity[] }> {
  const transcription: Transcription & { entities?: StoredEntity[] } = {
    id: randomUUID(),
    text,
    confidence: options.confidence ?? null,
    orientation: 'horizontal-lr',
    worker_run: options.workerRun ?? null,
    entity_count: options.entities?.length ?? 0,
    ...(options.entities && {
      entities: options.entities.map((entity) => ({
        ...entity,
        id: randomUUID(),
        confidence: null,
        worker_run: null,
      })),
    }),
  };
  await db.transcriptions.put({
    id: transcription.id,
    ownerId: elementId,
    data: transcription,
    savedAt: Date.now(),
    lastModified: null,
  });
  return transcription;
}

export function rectangle(x: number, y: number, width: number, height: number): Polygon {
  return [
    [x, y],
    [x + width, y],
    [x + width, y + height],
    [x, y + height],
    [x, y],
  ];
}
