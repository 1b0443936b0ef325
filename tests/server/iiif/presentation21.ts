/**
 * Reading a served manifest the way viewers do, and checking the Presentation API 2.1 rules
 * they rely on. manifesto.js is the parser Mirador (and the Universal Viewer) read manifests
 * with: what it finds is what a viewer shows.
 */
import { parseManifest, type Manifest, type Range } from 'manifesto.js';
import { expect } from 'vitest';

interface ServedCanvas {
  '@id': string;
  '@type': string;
  label: unknown;
  width: number;
  height: number;
  images: { '@type': string; motivation: string; on: string; resource: { service: Json } }[];
}

interface ServedRange {
  '@id': string;
  '@type': string;
  label: unknown;
  viewingHint?: string;
  canvases?: string[];
  ranges?: string[];
}

type Json = Record<string, unknown>;

export interface RangeSummary {
  label: string;
  /** Labels of the canvases the range covers, in order. */
  canvases: string[];
  ranges: RangeSummary[];
}

export interface ManifestSummary {
  label: string;
  canvases: string[];
  /** The table of contents below the top range (empty when the manifest has no ranges). */
  ranges: RangeSummary[];
  license: string | null;
  attribution: string | null;
  logo: string | null;
}

/** The Presentation 2.1 rules a served manifest must keep (§5 and §6 of the API). */
export function expectPresentation21(json: Json): void {
  const sequences = json.sequences as { canvases: ServedCanvas[] }[];
  expect(json['@context']).toBe('http://iiif.io/api/presentation/2/context.json');
  expect(json['@type']).toBe('sc:Manifest');
  expect(typeof json['@id']).toBe('string');
  expect(json.label).toBeTruthy();
  expect(sequences).toHaveLength(1);
  const canvases = sequences[0]!.canvases;
  // "Each sequence must have at least one canvas."
  expect(canvases.length).toBeGreaterThan(0);
  const canvasIds = canvases.map((canvas) => canvas['@id']);
  expect(new Set(canvasIds).size).toBe(canvasIds.length);
  for (const canvas of canvases) {
    expect(canvas['@type']).toBe('sc:Canvas');
    expect(canvas.label).toBeTruthy();
    expect(canvas.width).toBeGreaterThan(0);
    expect(canvas.height).toBeGreaterThan(0);
    for (const image of canvas.images) {
      expect(image).toMatchObject({ '@type': 'oa:Annotation', motivation: 'sc:painting' });
      expect(image.on).toBe(canvas['@id']);
      expect(image.resource.service['@context']).toBe('http://iiif.io/api/image/2/context.json');
    }
  }
  if (!('structures' in json)) return;
  const ranges = json.structures as ServedRange[];
  const rangeIds = ranges.map((range) => range['@id']);
  expect(new Set(rangeIds).size).toBe(rangeIds.length);
  for (const range of ranges) {
    expect(range['@type']).toBe('sc:Range');
    expect(range.label).toBeTruthy();
    // A range covers canvases of the sequence and names ranges listed in structures.
    for (const id of range.canvases ?? []) expect(canvasIds).toContain(id);
    for (const id of range.ranges ?? []) expect(rangeIds).toContain(id);
    expect((range.canvases ?? []).length + (range.ranges ?? []).length).toBeGreaterThan(0);
  }
  expect(ranges.filter((range) => range.viewingHint === 'top')).toHaveLength(1);
}

/** What manifesto.js (Mirador's parser) reads from the manifest. */
export function readAsViewer(json: Json): ManifestSummary {
  const manifest = parseManifest(structuredClone(json)) as Manifest;
  const canvases = manifest.getSequences()[0]!.getCanvases();
  const labels = new Map(canvases.map((canvas) => [canvas.id, canvas.getLabel().getValue()!]));
  const summary = (range: Range): RangeSummary => ({
    label: range.getLabel().getValue() ?? '',
    canvases: range.getCanvasIds().map((id) => labels.get(id) ?? `unknown canvas ${id}`),
    ranges: range.getRanges().map(summary),
  });
  const top = manifest.getTopRanges()[0];
  return {
    label: manifest.getLabel().getValue() ?? '',
    canvases: [...labels.values()],
    ranges: top ? top.getRanges().map(summary) : [],
    license: manifest.getLicense(),
    attribution: manifest.getAttribution().getValue(),
    logo: manifest.getLogo(),
  };
}

/** The thumbnail URL a viewer asks the image service for, as Mirador builds it. */
export function thumbnailUri(json: Json, index: number, width: number): string {
  const manifest = parseManifest(structuredClone(json)) as Manifest;
  return manifest.getSequences()[0]!.getCanvases()[index]!.getCanonicalImageUri(width);
}
