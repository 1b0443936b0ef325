/**
 * One element of the task: its image region read by Tesseract, then either new lines (and,
 * when asked, the text regions holding them) with their text, or a transcription of each of its
 * existing lines. Everything created carries the worker run.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Api } from './api';
import type { Settings } from './configuration';
import { boxPolygon, cropOf, cropUrl, type Crop, type ImageJson, type Point } from './geometry';
import { recognize } from './tesseract';
import { paragraphsOf, parseTsv, type OcrLine } from './tsv';

/** The type of the text regions made with create_regions, as the OCR-D imports name them. */
export const REGION_TYPE = 'paragraph';
/** Tesseract's page segmentation for a crop that is one line of text. */
const SINGLE_LINE_PSM = 7;
/** Items per bulk request: the API's limit. */
const BULK = 1000;
/** Crops downloaded at once for transcribe-existing mode. */
const DOWNLOADS = 6;

interface ElementJson {
  id: string;
  name: string;
  type: string;
  zone: { polygon: Point[]; image: ImageJson } | null;
}

export interface Context {
  api: Api;
  settings: Settings;
  workerRunId: string;
  /** Scratch folder for this element's images. */
  scratch: string;
  tessdata?: string | undefined;
  languages: string;
  log: (line: string) => void;
}

export interface Outcome {
  lines: number;
  regions: number;
}

function chunked<T>(items: T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < items.length; i += size) parts.push(items.slice(i, i + size));
  return parts;
}

async function download(ctx: Context, image: ImageJson, crop: Crop, file: string): Promise<void> {
  await fs.writeFile(file, await ctx.api.bytes(cropUrl(image, crop)));
}

const kept = (ctx: Context) => (line: OcrLine) => line.confidence >= ctx.settings.minConfidence;

export async function processElement(ctx: Context, elementId: string): Promise<Outcome> {
  const element = await ctx.api.json<ElementJson>('GET', `element/${elementId}/`);
  await fs.mkdir(ctx.scratch, { recursive: true });
  try {
    return ctx.settings.createLines
      ? await createLines(ctx, element)
      : await transcribeLines(ctx, element);
  } finally {
    await fs.rm(ctx.scratch, { recursive: true, force: true });
  }
}

async function createLines(ctx: Context, element: ElementJson): Promise<Outcome> {
  if (!element.zone) throw new Error(`${element.type} ${element.name} has no image to read`);
  const { image } = element.zone;
  const crop = cropOf(element.zone.polygon, image);
  const file = path.join(ctx.scratch, 'element.png');
  await download(ctx, image, crop, file);
  const tsv = await recognize(file, {
    languages: ctx.languages,
    psm: ctx.settings.psm,
    tessdata: ctx.tessdata,
  });
  const lines = parseTsv(tsv).filter(kept(ctx));
  const item = (line: OcrLine) => {
    const polygon = boxPolygon(line.box, crop);
    return polygon
      ? { polygon, text: line.text, confidence: Math.min(1, line.confidence / 100) }
      : null;
  };
  const post = async (parentId: string, items: NonNullable<ReturnType<typeof item>>[]) => {
    for (const part of chunked(items, BULK)) {
      await ctx.api.json('POST', `element/${parentId}/transcriptions/bulk/`, {
        element_type: ctx.settings.lineType,
        worker_run_id: ctx.workerRunId,
        transcriptions: part,
      });
    }
    return items.length;
  };

  if (!ctx.settings.createRegions) {
    const items = lines.map(item).filter((found) => found !== null);
    return { lines: items.length ? await post(element.id, items) : 0, regions: 0 };
  }

  const paragraphs = paragraphsOf(lines)
    .map((paragraph) => ({
      polygon: boxPolygon(paragraph.box, crop),
      items: paragraph.lines.map(item).filter((found) => found !== null),
    }))
    .filter(
      (paragraph): paragraph is { polygon: Point[]; items: typeof paragraph.items } =>
        paragraph.polygon !== null && paragraph.items.length > 0,
    );
  let created = 0;
  let regions = 0;
  for (const part of chunked(paragraphs, BULK)) {
    const ids = await ctx.api.json<{ id: string }[]>(
      'POST',
      `element/${element.id}/children/bulk/`,
      {
        worker_run_id: ctx.workerRunId,
        elements: part.map((paragraph) => ({
          name: String(regions + part.indexOf(paragraph) + 1),
          type: REGION_TYPE,
          polygon: paragraph.polygon,
        })),
      },
    );
    for (const [index, paragraph] of part.entries()) {
      created += await post(ids[index]!.id, paragraph.items);
    }
    regions += part.length;
  }
  return { lines: created, regions };
}

/** The element's lines of the configured type, at any depth, with their zones. */
async function existingLines(ctx: Context, element: ElementJson): Promise<ElementJson[]> {
  const type = encodeURIComponent(ctx.settings.lineType);
  return ctx.api.all<ElementJson>(
    `elements/${element.id}/children/?type=${type}&recursive=true&page_size=500`,
  );
}

async function transcribeLines(ctx: Context, element: ElementJson): Promise<Outcome> {
  // A process over the lines themselves (element type filter) gives each line as its element.
  const candidates =
    element.type === ctx.settings.lineType ? [element] : await existingLines(ctx, element);
  const lines = candidates.filter((line) => line.zone);
  if (lines.length === 0) {
    ctx.log(`${element.type} ${element.name}: no ${ctx.settings.lineType} with an image to read`);
    return { lines: 0, regions: 0 };
  }
  const files = lines.map((_, index) => path.join(ctx.scratch, `line-${index}.png`));
  let next = 0;
  const fetchNext = async (): Promise<void> => {
    for (let index = next++; index < lines.length; index = next++) {
      const zone = lines[index]!.zone!;
      await download(ctx, zone.image, cropOf(zone.polygon, zone.image), files[index]!);
    }
  };
  await Promise.all(Array.from({ length: DOWNLOADS }, fetchNext));

  // One Tesseract run reads every line: a list of images is read as pages, numbered from 1.
  const list = path.join(ctx.scratch, 'lines.txt');
  await fs.writeFile(list, `${files.join('\n')}\n`);
  const tsv = await recognize(list, {
    languages: ctx.languages,
    psm: SINGLE_LINE_PSM,
    tessdata: ctx.tessdata,
  });
  const byPage = new Map<number, OcrLine[]>();
  for (const line of parseTsv(tsv)) byPage.set(line.page, [...(byPage.get(line.page) ?? []), line]);

  const transcriptions = lines.flatMap((line, index) => {
    const found = byPage.get(index + 1) ?? [];
    if (found.length === 0) return [];
    const words = found.reduce((sum, part) => sum + part.text.split(' ').length, 0);
    const confidence =
      found.reduce((sum, part) => sum + part.confidence * part.text.split(' ').length, 0) / words;
    if (confidence < ctx.settings.minConfidence) return [];
    return [
      {
        element_id: line.id,
        text: found.map((part) => part.text).join(' '),
        confidence: Math.min(1, confidence / 100),
      },
    ];
  });
  for (const part of chunked(transcriptions, BULK)) {
    await ctx.api.json('POST', 'transcription/bulk/', {
      worker_run_id: ctx.workerRunId,
      transcriptions: part,
    });
  }
  return { lines: transcriptions.length, regions: 0 };
}
