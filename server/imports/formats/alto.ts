/**
 * ALTO (v4, and v2/v3 read by local names) to ParsedPage. Block types come from TAGREFS →
 * Tags/*Tag@LABEL as eScriptorium writes them; coordinates are converted to image pixels.
 */
import { attribute, child, children, readXml, type XmlElement } from './detect';
import { orderByPosition, orderByRank } from './lineOrder';
import {
  PointListError,
  boundingBox,
  parsePointList,
  rectangle,
  scalePoints,
  toClosedRing,
  toPolyline,
} from './polygon';
import {
  ImportFormatError,
  slugifyType,
  type ParsedLine,
  type ParsedPage,
  type ParsedRegion,
  type Point,
} from './types';

export interface AltoOptions {
  /**
   * Scan resolution in dots per inch, for files measured in mm10 or inch1200: ALTO itself has no
   * place to declare it, so it comes from the image (its density) or the user.
   */
  dpi?: number;
  /**
   * Pixel size of the image, used for mm10/inch1200 files when no dpi is known: the ALTO board's
   * own advice is to scale by image size / Page@WIDTH, @HEIGHT.
   */
  imageSize?: { width: number; height: number };
}

interface Scale {
  x: number;
  y: number;
}

interface Tag {
  element: string;
  label: string;
}

export function parseAlto(text: string, options: AltoOptions = {}): ParsedPage {
  const root = readXml(text);
  if (root.local.toLowerCase() !== 'alto') {
    const what = root.local === 'PcGts' ? 'a PAGE XML file' : `<${root.local}>`;
    throw new ImportFormatError(`Not an ALTO file: the root element is ${what}, not <alto>.`);
  }
  const warnings: string[] = [];
  const description = child(root, 'Description');
  const layout = child(root, 'Layout');
  const pages = layout ? children(layout, 'Page') : [];
  const page = pages[0];
  if (!page) throw new ImportFormatError('The ALTO file has no Layout/Page element.');
  if (pages.length > 1) {
    // Every page would point at the same sourceImageInformation; there is no image to give each.
    throw new ImportFormatError(
      `The ALTO file has ${pages.length} Page elements; only single-page ALTO files can be imported.`,
    );
  }

  const pageWidth = positive(number(page, 'WIDTH'));
  const pageHeight = positive(number(page, 'HEIGHT'));
  if (pageWidth === undefined || pageHeight === undefined) {
    throw new ImportFormatError(
      'The ALTO file does not declare the image size (Page@WIDTH and Page@HEIGHT).',
    );
  }
  const unitElement = description ? child(description, 'MeasurementUnit') : undefined;
  const unit = unitElement?.text.trim() ?? '';
  const scale = unitScale(unit, pageWidth, pageHeight, options, warnings);

  const imageInfo = description ? child(description, 'sourceImageInformation') : undefined;
  const fileName = imageInfo ? child(imageInfo, 'fileName') : undefined;
  const imageFilename = fileName?.text.trim() ?? '';
  if (imageFilename === '')
    warnings.push('The file names no image (sourceImageInformation/fileName).');

  const tags = readTags(root);
  const order: LineOrderContext = {
    places: readingOrderPlaces(root),
    fileOrderIsReadingOrder: writtenByEscriptorium(page),
  };
  const regions: ParsedRegion[] = [];
  for (const block of blockElements(page)) {
    const region = readBlock(block, regions.length, tags, scale, warnings, order);
    if (region) regions.push(region);
  }
  return {
    format: 'alto-4',
    imageFilename,
    width: Math.round(pageWidth * scale.x),
    height: Math.round(pageHeight * scale.y),
    regions,
    warnings,
  };
}

function unitScale(
  unit: string,
  pageWidth: number,
  pageHeight: number,
  options: AltoOptions,
  warnings: string[],
): Scale {
  if (unit === 'pixel') return { x: 1, y: 1 };
  if (unit !== 'mm10' && unit !== 'inch1200') {
    warnings.push(
      unit === ''
        ? 'The file declares no MeasurementUnit; coordinates are read as pixels.'
        : `Unknown MeasurementUnit "${unit}"; coordinates are read as pixels.`,
    );
    return { x: 1, y: 1 };
  }
  const unitsPerInch = unit === 'mm10' ? 254 : 1200;
  if (options.dpi !== undefined && options.dpi > 0) {
    const factor = options.dpi / unitsPerInch;
    return { x: factor, y: factor };
  }
  if (options.imageSize && options.imageSize.width > 0 && options.imageSize.height > 0) {
    return { x: options.imageSize.width / pageWidth, y: options.imageSize.height / pageHeight };
  }
  warnings.push(
    `Coordinates are in ${unit} and no resolution is known; they were left unconverted and will ` +
      'not match the image.',
  );
  return { x: 1, y: 1 };
}

function readTags(root: XmlElement): Map<string, Tag> {
  const tags = new Map<string, Tag>();
  const container = child(root, 'Tags');
  for (const tag of container?.children ?? []) {
    const id = attribute(tag, 'ID');
    const label = attribute(tag, 'LABEL')?.trim();
    if (id && label) tags.set(id, { element: tag.local, label });
  }
  return tags;
}

/**
 * TextBlocks, Illustrations and GraphicalElements in document order, margins and PrintSpace alike.
 * A ComposedBlock only groups blocks: its members are taken, not the group itself.
 */
function blockElements(parent: XmlElement): XmlElement[] {
  const found: XmlElement[] = [];
  for (const element of parent.children) {
    if (['TextBlock', 'Illustration', 'GraphicalElement'].includes(element.local)) {
      found.push(element);
    } else if (
      element.local === 'ComposedBlock' ||
      /^(PrintSpace|TopMargin|LeftMargin|RightMargin|BottomMargin)$/.test(element.local)
    ) {
      found.push(...blockElements(element));
    }
  }
  return found;
}

/** What orders a block's lines: the ReadingOrder's places by id, else the file's own order. */
interface LineOrderContext {
  places: ReadonlyMap<string, number>;
  fileOrderIsReadingOrder: boolean;
}

/**
 * The ids an ALTO 4 ReadingOrder names, in its order: groups followed depth first, an
 * ElementRef's REF possibly naming several. Empty when the file has none.
 */
function readingOrderPlaces(root: XmlElement): Map<string, number> {
  const places = new Map<string, number>();
  const visit = (group: XmlElement) => {
    for (const member of group.children) {
      if (member.local === 'ElementRef') {
        for (const ref of (attribute(member, 'REF') ?? '').split(/\s+/)) {
          if (ref !== '' && !places.has(ref)) places.set(ref, places.size);
        }
      } else if (member.local === 'OrderedGroup' || member.local === 'UnorderedGroup') {
        visit(member);
      }
    }
  };
  const readingOrder = child(root, 'ReadingOrder');
  if (readingOrder) visit(readingOrder);
  return places;
}

/**
 * Whether the file's line order is a reading order: eScriptorium (every id it writes starts
 * with eSc_) writes lines in the order its transcribers set by hand. Without that or a
 * ReadingOrder naming every line of a block, lines are read by their position (left-to-right
 * text).
 */
function writtenByEscriptorium(page: XmlElement): boolean {
  return (attribute(page, 'ID') ?? '').startsWith('eSc_');
}

function readBlock(
  element: XmlElement,
  position: number,
  tags: ReadonlyMap<string, Tag>,
  scale: Scale,
  warnings: string[],
  order: LineOrderContext,
): ParsedRegion | null {
  const kind = element.local === 'TextBlock' ? 'text' : 'other';
  let id = attribute(element, 'ID') ?? '';
  if (id === '') {
    id = `unnamed_region_${position + 1}`;
    warnings.push(`A ${element.local} has no ID; it was given the id ${id}.`);
  }
  const { type, typeLabel } = blockType(element, tags);
  const read = kind === 'text' ? readLines(element, id, scale, warnings) : [];
  const lines =
    orderByRank(read, (line) => order.places.get(line.id)) ??
    (order.fileOrderIsReadingOrder ? read : orderByPosition(read, {}));
  const outline = shapeRing(element, scale);
  if (outline.ring) {
    if (outline.problem) warnings.push(`${element.local} ${id}: ${outline.problem}.`);
    return { id, kind, element: element.local, type, typeLabel, polygon: outline.ring, lines };
  }
  const box = boundingBox(lines.flatMap((line) => line.polygon));
  if (!box) {
    warnings.push(`${element.local} ${id} skipped: ${outline.problem}.`);
    return null;
  }
  // Keeping the lines matters more than the block's own outline.
  warnings.push(
    `${element.local} ${id}: ${outline.problem}; the box around its lines is used instead.`,
  );
  const polygon = rectangle(box.minX, box.minY, box.maxX - box.minX, box.maxY - box.minY);
  return { id, kind, element: element.local, type, typeLabel, polygon, lines };
}

/**
 * The first referenced OtherTag's label (eScriptorium's "block type"), else any referenced tag's;
 * then Illustration@TYPE; else the element name. An untyped TextBlock is a 'text_region', as an
 * untyped PAGE TextRegion is, so both exports of one page give the same types.
 */
function blockType(
  element: XmlElement,
  tags: ReadonlyMap<string, Tag>,
): { type: string; typeLabel: string } {
  const referenced = (attribute(element, 'TAGREFS') ?? '')
    .split(/\s+/)
    .map((ref) => tags.get(ref))
    .filter((tag): tag is Tag => tag !== undefined);
  const tag = referenced.find((t) => t.element === 'OtherTag') ?? referenced[0];
  for (const label of [tag?.label, attribute(element, 'TYPE')?.trim()]) {
    if (!label) continue;
    const type = slugifyType(label);
    if (type !== '') return { type, typeLabel: label };
  }
  const fallback = element.local === 'TextBlock' ? 'TextRegion' : element.local;
  return { type: slugifyType(fallback), typeLabel: fallback };
}

function number(element: XmlElement, name: string): number | undefined {
  const value = attribute(element, name)?.trim();
  if (value === undefined || !/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(value)) {
    return undefined;
  }
  return Number(value);
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && value > 0 ? value : undefined;
}

/**
 * Shape/Polygon when present (ALTO 3.1+), else the HPOS/VPOS/WIDTH/HEIGHT box every ALTO version
 * has. A problem is reported when a polygon had to be replaced or nothing is usable.
 */
function shapeRing(element: XmlElement, scale: Scale): { ring: Point[] | null; problem?: string } {
  const shape = child(element, 'Shape');
  const polygon = shape ? child(shape, 'Polygon') : undefined;
  const box = boxRing(element, scale);
  if (polygon) {
    const points = attribute(polygon, 'POINTS') ?? '';
    let problem: string;
    try {
      const ring = toClosedRing(scalePoints(parsePointList(points), scale.x, scale.y));
      if (ring) return { ring };
      problem = 'its Polygon has fewer than three distinct points or no area';
    } catch (error) {
      if (!(error instanceof PointListError)) throw error;
      problem = `its Polygon cannot be read (${error.message})`;
    }
    return box
      ? { ring: box, problem: `${problem}; its HPOS/VPOS/WIDTH/HEIGHT box is used instead` }
      : { ring: null, problem };
  }
  return box ? { ring: box } : { ring: null, problem: 'it has neither a Polygon nor a box' };
}

function boxRing(element: XmlElement, scale: Scale): Point[] | null {
  const x = number(element, 'HPOS');
  const y = number(element, 'VPOS');
  const width = number(element, 'WIDTH');
  const height = number(element, 'HEIGHT');
  if (x === undefined || y === undefined || width === undefined || height === undefined)
    return null;
  return toClosedRing(scalePoints(rectangle(x, y, width, height), scale.x, scale.y));
}

function readLines(
  block: XmlElement,
  blockId: string,
  scale: Scale,
  warnings: string[],
): ParsedLine[] {
  const lines: ParsedLine[] = [];
  children(block, 'TextLine').forEach((element, index) => {
    let id = attribute(element, 'ID') ?? '';
    if (id === '') {
      id = `${blockId}_line_${index + 1}`;
      warnings.push(`A TextLine in block ${blockId} has no ID; it was given the id ${id}.`);
    }
    const outline = shapeRing(element, scale);
    if (!outline.ring) {
      warnings.push(`TextLine ${id} in block ${blockId} skipped: ${outline.problem}.`);
      return;
    }
    if (outline.problem) warnings.push(`TextLine ${id}: ${outline.problem}.`);
    lines.push({
      id,
      polygon: outline.ring,
      baseline: readBaseline(element, id, scale, warnings),
      text: lineText(element),
    });
  });
  return lines;
}

/**
 * ALTO 4.2+ writes BASELINE as points "x1 y1 x2 y2 …"; earlier versions as one number, the
 * baseline's vertical position, which spans the line's box horizontally.
 */
function readBaseline(
  line: XmlElement,
  id: string,
  scale: Scale,
  warnings: string[],
): Point[] | null {
  const value = attribute(line, 'BASELINE')?.trim();
  if (value === undefined || value === '') return null;
  let points: Point[];
  try {
    if (/^[-+]?[\d.]+(?:[eE][-+]?\d+)?$/.test(value)) {
      const y = Number(value);
      const x = number(line, 'HPOS');
      const width = number(line, 'WIDTH');
      if (x === undefined || width === undefined) {
        warnings.push(
          `TextLine ${id}: its BASELINE is one number and the line has no box; ignored.`,
        );
        return null;
      }
      points = [
        [x, y],
        [x + width, y],
      ];
    } else {
      points = parsePointList(value);
    }
  } catch (error) {
    if (!(error instanceof PointListError)) throw error;
    warnings.push(`TextLine ${id}: its BASELINE is ignored (${error.message}).`);
    return null;
  }
  const polyline = toPolyline(scalePoints(points, scale.x, scale.y));
  if (!polyline) {
    warnings.push(`TextLine ${id}: its BASELINE is ignored (fewer than two distinct points).`);
  }
  return polyline;
}

/**
 * The Strings' CONTENT joined by single spaces whether or not SP elements sit between them; a
 * HYP's CONTENT (the hyphen) is glued to the word before it.
 */
function lineText(line: XmlElement): string {
  const words: string[] = [];
  for (const element of line.children) {
    const content = attribute(element, 'CONTENT') ?? '';
    if (content.trim() === '') continue;
    if (element.local === 'String') {
      words.push(content);
    } else if (element.local === 'HYP') {
      if (words.length > 0) words[words.length - 1] += content;
      else words.push(content);
    }
  }
  return words.join(' ').replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
}
