/**
 * IIIF Presentation 2 and 3 manifests to a list of canvases with their image (enough to create
 * one page element per canvas), the ranges over them and the licence and attribution.
 * Metadata are not read here.
 */
import { isObject, labelText, list, objects, text, type Json } from './iiifJson';
import { parseRights, parseStructures } from './iiifStructures';
import { ImportFormatError, type ParsedCanvas, type ParsedManifest } from './types';

export { labelText };

export function parseIiifManifest(input: string | unknown): ParsedManifest {
  let json: unknown = input;
  if (typeof input === 'string') {
    try {
      json = JSON.parse(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input) as unknown;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ImportFormatError(`The file is not valid JSON: ${reason}`);
    }
  }
  if (!isObject(json))
    throw new ImportFormatError('Not a IIIF manifest: the JSON is not an object.');
  const version = presentationVersion(json);
  const problems = new Problems();
  const canvases = version === 2 ? canvasesV2(json, problems) : canvasesV3(json, problems);
  const id = text(version === 2 ? (json['@id'] ?? json['id']) : (json['id'] ?? json['@id']));
  if (id === '') problems.add('The manifest has no id.');
  if (canvases.length === 0) problems.add('The manifest has no canvas with an image.');
  return {
    version,
    id,
    label: labelText(json['label']),
    canvases,
    structures: parseStructures(json),
    rights: parseRights(json),
    warnings: problems.list(),
  };
}

function presentationVersion(json: Json): 2 | 3 {
  const type = json['type'] ?? json['@type'];
  if (type === 'Collection' || type === 'sc:Collection') {
    throw new ImportFormatError(
      'This is a IIIF collection, not a manifest: import the manifests it lists one by one.',
    );
  }
  const contexts = list(json['@context']).filter((c): c is string => typeof c === 'string');
  if (contexts.some((c) => c.includes('iiif.io/api/presentation/3'))) return 3;
  if (contexts.some((c) => c.includes('iiif.io/api/presentation/2'))) return 2;
  if (type === 'Manifest') return 3;
  if (type === 'sc:Manifest') return 2;
  throw new ImportFormatError(
    'Not a IIIF manifest: no Presentation 2 or 3 @context and no Manifest type.',
  );
}

/** One warning per kind of problem, naming the first canvases, not one line per canvas. */
class Problems {
  private readonly general: string[] = [];
  private readonly byKind = new Map<string, string[]>();

  add(message: string): void {
    this.general.push(message);
  }

  canvas(kind: string, canvasId: string): void {
    const ids = this.byKind.get(kind) ?? [];
    ids.push(canvasId || '(no id)');
    this.byKind.set(kind, ids);
  }

  list(): string[] {
    const grouped = [...this.byKind].map(([kind, ids]) => {
      const shown = ids.slice(0, 3).join(', ') + (ids.length > 3 ? ', …' : '');
      const count = ids.length === 1 ? '1 canvas' : `${ids.length} canvases`;
      return `${count} ${kind} (${shown}).`;
    });
    return [...this.general, ...grouped];
  }
}

const SKIPPED_NO_IMAGE = 'skipped: no painting image';
const SKIPPED_NO_SIZE = 'skipped: no width and height';
const NO_SERVICE = 'without a IIIF Image service: the image URL is used as is';
const SIZE_FROM_IMAGE = "without a width and height: the image's own size is used";

function canvasesV2(manifest: Json, problems: Problems): ParsedCanvas[] {
  const sequences = objects(manifest['sequences']);
  if (sequences.length > 1) {
    problems.add(`The manifest has ${sequences.length} sequences; only the first is read.`);
  }
  return objects(sequences[0]?.['canvases']).flatMap((canvas) => {
    const id = text(canvas['@id'] ?? canvas['id']);
    const annotations = objects(canvas['images']);
    const painting =
      annotations.find((a) => a['motivation'] === 'sc:painting') ?? annotations[0] ?? {};
    let resource = isObject(painting['resource']) ? painting['resource'] : undefined;
    if (resource && resource['@type'] === 'oa:Choice') {
      const choice: Json = resource;
      resource = isObject(choice['default']) ? choice['default'] : objects(choice['item'])[0];
    }
    return toCanvas(id, canvas, resource, problems);
  });
}

function canvasesV3(manifest: Json, problems: Problems): ParsedCanvas[] {
  const canvases = objects(manifest['items']).filter(
    (item) => (item['type'] ?? 'Canvas') === 'Canvas',
  );
  return canvases.flatMap((canvas) => {
    const id = text(canvas['id'] ?? canvas['@id']);
    const page = objects(canvas['items'])[0];
    const annotations = objects(page?.['items']);
    const painting = annotations.find((a) => a['motivation'] === 'painting') ?? annotations[0];
    let body = objects(painting?.['body'])[0];
    if (body && body['type'] === 'Choice') body = objects(body['items'])[0];
    return toCanvas(id, canvas, body, problems);
  });
}

function toCanvas(
  id: string,
  canvas: Json,
  image: Json | undefined,
  problems: Problems,
): ParsedCanvas[] {
  const imageUrl = image ? text(image['id'] ?? image['@id']) : '';
  if (imageUrl === '') {
    problems.canvas(SKIPPED_NO_IMAGE, id);
    return [];
  }
  let width = dimension(canvas['width']);
  let height = dimension(canvas['height']);
  if (width === null || height === null) {
    width = dimension(image?.['width']);
    height = dimension(image?.['height']);
    if (width === null || height === null) {
      problems.canvas(SKIPPED_NO_SIZE, id);
      return [];
    }
    problems.canvas(SIZE_FROM_IMAGE, id);
  }
  const imageServiceUrl = imageService(image?.['service']);
  if (imageServiceUrl === null) problems.canvas(NO_SERVICE, id);
  return [{ id, label: labelText(canvas['label']), width, height, imageServiceUrl, imageUrl }];
}

function dimension(value: unknown): number | null {
  const size = typeof value === 'string' ? Number(value) : value;
  return typeof size === 'number' && Number.isFinite(size) && size > 0 ? Math.round(size) : null;
}

/**
 * The base URL of the first IIIF Image API service (ImageService2/3 type, or an image API
 * @context or profile). A service saying nothing about itself is taken too, as early v2
 * manifests wrote them; auth or search services are not.
 */
function imageService(value: unknown): string | null {
  for (const service of objects(value)) {
    const id = text(service['id'] ?? service['@id']);
    if (id === '') continue;
    const type = text(service['type'] ?? service['@type']);
    const hints = [...list(service['@context']), ...list(service['profile'])].filter(
      (hint): hint is string => typeof hint === 'string',
    );
    const isImage =
      type.startsWith('ImageService') ||
      hints.some((hint) => /iiif\.io\/api\/image|image-api/.test(hint));
    if (isImage || (type === '' && hints.length === 0)) {
      return id.replace(/\/info\.json$/, '').replace(/\/+$/, '');
    }
  }
  return null;
}
