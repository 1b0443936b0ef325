/**
 * What the format parsers hand to the importer: plain data, already in image pixels, with integer
 * coordinates and closed rings. Nothing here knows about the database or the file system.
 */

export type Point = [number, number];

export type LayoutFormat = 'page-2013' | 'page-2019' | 'alto-4';

export interface ParsedPage {
  format: LayoutFormat;
  /** As written in the XML; resolving it to a real file (basename fallback…) is the importer's job. */
  imageFilename: string;
  width: number;
  height: number;
  /** Reading order first (PAGE ReadingOrder), then the unreferenced regions in document order. */
  regions: ParsedRegion[];
  warnings: string[];
}

export interface ParsedRegion {
  id: string;
  kind: 'text' | 'other';
  /**
   * Local name of the XML element (TextRegion, SeparatorRegion, TextBlock, Illustration…). The type
   * alone cannot tell a typed GraphicRegion (type="stamp") from a text region typed "stamp".
   */
  element: string;
  /** ASCII slug usable as an element type slug: MainZone → main_zone, page-number → page_number. */
  type: string;
  /** The label the slug was made from, for a display name. */
  typeLabel: string;
  polygon: Point[];
  /**
   * In reading order (lineOrder.ts): an explicit one when the file has it, else by position in
   * the text's direction, never the order the file happens to list them in.
   */
  lines: ParsedLine[];
}

export interface ParsedLine {
  id: string;
  polygon: Point[];
  /** An open polyline of at least two distinct points, or null. */
  baseline: Point[] | null;
  /** The line's own text, trimmed of surrounding XML whitespace; '' when it has none. */
  text: string;
}

export interface ParsedCanvas {
  id: string;
  label: string;
  width: number;
  height: number;
  /** IIIF Image API base URL (no /info.json, no trailing slash); null when the image has no service. */
  imageServiceUrl: string | null;
  /** Id of the painting image resource: a full image URL, usable when there is no service. */
  imageUrl: string;
}

/** A range of the manifest's structures (a chapter, a gathering…), nested as in the source. */
export interface ParsedRange {
  label: string;
  /** Ids of the canvases it covers, in order, without media fragments (#xywh=…). */
  canvases: string[];
  ranges: ParsedRange[];
}

/** A language-tagged string; language null when the source gives none. */
export interface ParsedText {
  value: string;
  language: string | null;
}

/**
 * What the manifest says about reuse, kept to be served back: Presentation 2 `license`,
 * `attribution` and `logo`; Presentation 3 `rights`, `requiredStatement` and the providers' logos.
 */
export interface ParsedRights {
  /** URIs of the licence or rights statement. */
  license: string[];
  attribution: ParsedText[];
  /** The requiredStatement's label (Presentation 3), which Presentation 2 has no place for. */
  attributionLabel: ParsedText[];
  /** Image URLs. */
  logo: string[];
}

export interface ParsedManifest {
  version: 2 | 3;
  id: string;
  label: string;
  canvases: ParsedCanvas[];
  /** The top-level ranges; empty when the manifest has none. */
  structures: ParsedRange[];
  rights: ParsedRights;
  warnings: string[];
}

/** A file the parsers cannot read at all; the message says why, for the user. */
export class ImportFormatError extends Error {
  override readonly name = 'ImportFormatError';
}

export { slugifyType } from '../../../src/lib/exports/typeSlug';
