/**
 * Elements as the API shows them (api/arkindex-api.md §3.1 list items, §3.2 RetrieveElement).
 * A page of rows is completed with a fixed number of batched queries (images, corpora,
 * classifications, metadata, children, worker run summaries), never one per element.
 */
import type { Db } from '../../db';
import type { Corpus, Image, MetadataType } from '../../db/schema';
import type { Right } from '../../permissions';
import { boundingBox, fullImagePolygon, type Point } from '../../geometry/polygon';
import { imageJson, type ImageJson } from '../images';
import { workerRunSummaries, type WorkerRunSummary } from '../workerRuns';
import { DEFAULT_SERIALIZE, type SerializeOptions } from './listOptions';
import {
  chunks,
  imageOfRow,
  INSERT_CHUNK,
  type ElementDetailRow,
  type ElementRow,
} from './repository';

export interface WorkerRunJson {
  id: string;
  summary: string;
}

export interface ZoneJson {
  id: string;
  polygon: Point[];
  image: ImageJson;
  url: string;
}

export interface ClassificationJson {
  id: string;
  ml_class: { id: string; name: string };
  state: string;
  confidence: number | null;
  high_confidence: boolean;
  worker_run: WorkerRunJson | null;
}

export interface MetadataJson {
  id: string;
  type: MetadataType;
  name: string;
  value: string;
  dates: unknown[];
  worker_run: WorkerRunJson | null;
}

export interface ElementListJson {
  id: string;
  type: string;
  type_id: string;
  name: string;
  corpus: { id: string; name?: string; public?: boolean };
  thumbnail_url: string | null;
  zone: ZoneJson | null;
  rotation_angle: number;
  mirrored: boolean;
  confidence: number | null;
  created: string;
  creator: string | null;
  worker_run: WorkerRunJson | null;
  has_children: boolean | null;
  classes?: ClassificationJson[];
  metadata?: MetadataJson[];
}

export interface ElementJson extends ElementListJson {
  corpus: { id: string; name: string; public: boolean };
  has_children: boolean;
  rights: Right[];
  classifications: ClassificationJson[];
  metadata_count: number;
}

/** Height of list thumbnails (spec 001 §9: the image details default thumbnail height). */
export const THUMBNAIL_HEIGHT = 200;

/** The `{id, summary}` of the worker runs a page names, read once (workerRunSummaries). */
export type WorkerRunSummaries = ReadonlyMap<string, WorkerRunSummary>;

/**
 * The `worker_run` of a result: null for a manual one, else its summary from the page's
 * `summaries`. A run not found there (no longer stored, or no summaries given) still shows it
 * came from a worker run, with a summary that says no more than its id.
 */
export function workerRunJson(
  id: string | null,
  summaries?: WorkerRunSummaries,
): WorkerRunJson | null {
  if (!id) return null;
  return summaries?.get(id) ?? { id, summary: `Worker run ${id.slice(0, 6)}` };
}

export function parsePolygon(text: string | null, image: Image): Point[] {
  if (text) {
    try {
      return JSON.parse(text) as Point[];
    } catch {
      // A damaged row shows the whole image rather than failing the list.
    }
  }
  return fullImagePolygon(image);
}

/** The IIIF region of a polygon's bounding box, `full` when it is the whole image. */
export function iiifRegion(polygon: readonly Point[], image: Pick<Image, 'width' | 'height'>) {
  const box = boundingBox(polygon);
  if (box.x === 0 && box.y === 0 && box.width === image.width && box.height === image.height) {
    return 'full';
  }
  return `${box.x},${box.y},${box.width},${box.height}`;
}

/** `known` with the images of `ids` read from the database added. */
async function imagesById(
  db: Db,
  ids: string[],
  known: Map<string, Image>,
): Promise<Map<string, Image>> {
  const map = new Map(known);
  for (const part of chunks(ids, INSERT_CHUNK)) {
    const rows = await db.selectFrom('images').selectAll().where('id', 'in', part).execute();
    for (const row of rows) map.set(row.id, row);
  }
  return map;
}

/** `known` with the corpora of `ids` read from the database added. */
async function corporaById(
  db: Db,
  ids: string[],
  known: Map<string, Corpus>,
): Promise<Map<string, Corpus>> {
  if (ids.length === 0) return known;
  const rows = await db.selectFrom('corpora').selectAll().where('id', 'in', ids).execute();
  return new Map([...known, ...rows.map((row) => [row.id, row] as const)]);
}

type ClassificationRow = Awaited<ReturnType<typeof classificationRows>>[number];
type MetadataRow = Awaited<ReturnType<typeof metadataRows>>[number];

async function classificationRows(db: Db, elementIds: string[]) {
  const rows = [];
  for (const part of chunks(elementIds, INSERT_CHUNK)) {
    rows.push(
      ...(await db
        .selectFrom('classifications')
        .innerJoin('ml_classes', 'ml_classes.id', 'classifications.ml_class_id')
        .select([
          'classifications.id',
          'classifications.element_id',
          'classifications.state',
          'classifications.confidence',
          'classifications.high_confidence',
          'classifications.worker_run_id',
          'ml_classes.id as class_id',
          'ml_classes.name as class_name',
        ])
        .where('classifications.element_id', 'in', part)
        .orderBy('ml_classes.name')
        .orderBy('classifications.id')
        .execute()),
    );
  }
  return rows;
}

function groupClassifications(
  rows: ClassificationRow[],
  summaries: WorkerRunSummaries,
): Map<string, ClassificationJson[]> {
  const map = new Map<string, ClassificationJson[]>();
  for (const row of rows) {
    const list = map.get(row.element_id) ?? [];
    list.push({
      id: row.id,
      ml_class: { id: row.class_id, name: row.class_name },
      state: row.state,
      confidence: row.confidence,
      high_confidence: row.high_confidence === 1,
      worker_run: workerRunJson(row.worker_run_id, summaries),
    });
    map.set(row.element_id, list);
  }
  return map;
}

/** The classifications of each element, with their worker runs' summaries (one query). */
export async function classificationsByElement(
  db: Db,
  elementIds: string[],
): Promise<Map<string, ClassificationJson[]>> {
  const rows = await classificationRows(db, elementIds);
  const summaries = await workerRunSummaries(
    db,
    rows.map((row) => row.worker_run_id),
  );
  return groupClassifications(rows, summaries);
}

async function metadataRows(db: Db, elementIds: string[]) {
  const rows = [];
  for (const part of chunks(elementIds, INSERT_CHUNK)) {
    rows.push(
      ...(await db
        .selectFrom('metadata')
        .select(['id', 'element_id', 'type', 'name', 'value', 'worker_run_id'])
        .where('element_id', 'in', part)
        .orderBy('name')
        .orderBy('id')
        .execute()),
    );
  }
  return rows;
}

function groupMetadata(
  rows: MetadataRow[],
  summaries: WorkerRunSummaries,
): Map<string, MetadataJson[]> {
  const map = new Map<string, MetadataJson[]>();
  for (const row of rows) {
    const list = map.get(row.element_id) ?? [];
    list.push({
      id: row.id,
      type: row.type,
      name: row.name,
      value: row.value,
      dates: [],
      worker_run: workerRunJson(row.worker_run_id, summaries),
    });
    map.set(row.element_id, list);
  }
  return map;
}

/** The ids among `elementIds` that have at least one child. */
export async function withChildren(db: Db, elementIds: string[]): Promise<Set<string>> {
  const parents = new Set<string>();
  for (const part of chunks(elementIds, INSERT_CHUNK)) {
    const rows = await db
      .selectFrom('element_links')
      .select('parent_id')
      .distinct()
      .where('parent_id', 'in', part)
      .execute();
    for (const row of rows) parents.add(row.parent_id);
  }
  return parents;
}

/** A page of rows as list items; `origin` builds the IIIF URLs of local images. */
export async function serializeElements(
  db: Db,
  rows: ElementRow[],
  origin: string,
  options: SerializeOptions = DEFAULT_SERIALIZE,
  /** Corpora the caller already holds (a detail's own), not read again. */
  knownCorpora?: Corpus[],
): Promise<ElementListJson[]> {
  const ids = rows.map((row) => row.id);
  const imageIds = [...new Set(rows.flatMap((row) => (row.image_id ? [row.image_id] : [])))];
  const corpusIds = [...new Set(rows.map((row) => row.corpus_id))];
  // Images come with the rows when their query joined them; only the others are read here.
  const joined = new Map<string, Image>();
  for (const row of rows) {
    const image = imageOfRow(row);
    if (image) joined.set(image.id, image);
  }
  const known = new Map((knownCorpora ?? []).map((corpus) => [corpus.id, corpus]));
  const [images, corpora, classRows, metadataRowList, parents] = await Promise.all([
    imagesById(
      db,
      imageIds.filter((id) => !joined.has(id)),
      joined,
    ),
    options.corpus
      ? corporaById(
          db,
          corpusIds.filter((id) => !known.has(id)),
          known,
        )
      : null,
    options.classes ? classificationRows(db, ids) : null,
    options.metadata ? metadataRows(db, ids) : null,
    options.hasChildren ? withChildren(db, ids) : null,
  ]);
  // Every worker run the page names, its elements' and their results', in one query.
  const summaries = await workerRunSummaries(db, [
    ...rows.map((row) => row.worker_run_id),
    ...(classRows ?? []).map((row) => row.worker_run_id),
    ...(metadataRowList ?? []).map((row) => row.worker_run_id),
  ]);
  const classes = classRows ? groupClassifications(classRows, summaries) : null;
  const metadata = metadataRowList ? groupMetadata(metadataRowList, summaries) : null;
  // A page's lines share their page's image: its JSON (a URL parse) is made once per image.
  const iiifOf = new Map<string, ImageJson>();
  const iiifJson = (image: Image) => {
    let json = iiifOf.get(image.id);
    if (!json) iiifOf.set(image.id, (json = imageJson(image, origin)));
    return json;
  };
  return rows.map((row) => {
    const image = row.image_id ? images.get(row.image_id) : undefined;
    const iiif = image ? iiifJson(image) : null;
    const polygon = image ? parsePolygon(row.polygon, image) : null;
    const region = image && polygon ? iiifRegion(polygon, image) : null;
    const corpus = corpora?.get(row.corpus_id);
    const json: ElementListJson = {
      id: row.id,
      type: row.type_slug,
      type_id: row.type_id,
      name: row.name,
      corpus: corpus
        ? { id: corpus.id, name: corpus.name, public: corpus.public === 1 }
        : { id: row.corpus_id },
      thumbnail_url: iiif ? `${iiif.url}/${region}/,${THUMBNAIL_HEIGHT}/0/default.jpg` : null,
      zone:
        iiif && polygon && options.zone
          ? {
              id: row.id,
              polygon,
              image: iiif,
              url: `${iiif.url}/${region}/full/0/default.jpg`,
            }
          : null,
      rotation_angle: row.rotation_angle,
      mirrored: row.mirrored === 1,
      confidence: row.confidence,
      created: row.created,
      creator: row.creator_email,
      worker_run: workerRunJson(row.worker_run_id, summaries),
      has_children: parents ? parents.has(row.id) : null,
    };
    if (classes) json.classes = classes.get(row.id) ?? [];
    if (metadata) json.metadata = metadata.get(row.id) ?? [];
    return json;
  });
}

/** RetrieveElement: the list shape with the full corpus, rights, classifications and counts. */
export async function elementJson(
  db: Db,
  row: ElementDetailRow,
  origin: string,
  rights: Right[],
  corpus?: Corpus,
): Promise<ElementJson> {
  // With the classifications, so the element's and theirs share one worker run query; its
  // children and metadata were counted with the row.
  const [base] = await serializeElements(
    db,
    [row],
    origin,
    { ...DEFAULT_SERIALIZE, corpus: true, classes: true },
    corpus ? [corpus] : undefined,
  );
  const { classes, metadata: _metadata, ...item } = base!;
  return {
    ...item,
    corpus: item.corpus as ElementJson['corpus'],
    has_children: row.has_child !== null && Number(row.has_child) > 0,
    rights,
    classifications: classes ?? [],
    metadata_count: Number(row.metadata_count ?? 0),
  };
}
