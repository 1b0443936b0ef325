/**
 * Each format's file, written under the artifacts folder from the pages read in the export:
 * `pagexml.zip` / `alto.zip` (one XML per page), `export.pdf`, `export.docx`, `export.csv`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Zip, ZipDeflate } from 'fflate';
import { writeAlto } from '../../src/lib/exports/alto';
import { csvHeader, csvRow, type CsvElement } from '../../src/lib/exports/csv';
import type { PageLayout } from '../../src/lib/exports/layout';
import { writePageXml } from '../../src/lib/exports/pageXml';
import type { Api } from '../tesseract/api';
import { writeDocx } from './docx';
import { isoTime, type ExportImage, type ExportReader, type WalkedElement } from './exportLayout';
import { archiveNames, type NamedPage } from './fileNames';
import { writePdf, type PdfPage } from './pdf';
import type { Format, Settings } from './settings';

export interface OutputContext {
  reader: ExportReader;
  api: Api;
  /** The chosen elements' ids, in the task's order. */
  roots: string[];
  settings: Settings;
  typeNames: ReadonlyMap<string, string>;
  /** The Folia server the task talks to, for the images it stores (…/iiif/<id>). */
  foliaRoot: string;
  artifactsDir: string;
  title: string;
  log: (line: string) => void;
}

export const OUTPUT_FILES: Record<Format, string> = {
  pagexml: 'pagexml.zip',
  alto: 'alto.zip',
  pdf: 'export.pdf',
  docx: 'export.docx',
  csv: 'export.csv',
};

/**
 * Pages (with the parent that names their folder on a clash), at least one. A page without an
 * image has no size to place anything on: it is left out, and said so.
 */
function pagesOf(context: OutputContext): NamedPage[] {
  const pages: NamedPage[] = [];
  for (const { element, parent } of context.reader.pageEntries(context.roots)) {
    if (element.image_id === null) {
      context.log(`${element.name}: left out, this page has no image`);
      continue;
    }
    pages.push({ id: element.id, name: element.name, parentName: parent?.name ?? null });
  }
  if (pages.length === 0) {
    throw new Error('There is no page under the chosen elements: nothing to export.');
  }
  context.log(`${pages.length} page(s) to export`);
  return pages;
}

function layouts(context: OutputContext, pages: readonly NamedPage[]): PageLayout[] {
  return pages.map((page, index) => {
    const layout = context.reader.layout(page.id, context.typeNames);
    if (layout.skipped > 0) {
      context.log(
        `${page.name}: ${layout.skipped} element(s) without a polygon on its image left out`,
      );
    }
    if ((index + 1) % 50 === 0) context.log(`${index + 1} of ${pages.length} page(s) read`);
    return layout;
  });
}

function writeArtifact(context: OutputContext, name: string, bytes: Uint8Array | string): string {
  fs.mkdirSync(context.artifactsDir, { recursive: true });
  const file = path.join(context.artifactsDir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

/**
 * The zip of one XML file per page, written to disk as each page is read, so only one page's
 * layout and file are in memory at a time.
 */
function xmlArchive(
  context: OutputContext,
  name: string,
  write: (layout: PageLayout) => string,
): string {
  const pages = pagesOf(context);
  const names = archiveNames(pages, '.xml');
  fs.mkdirSync(context.artifactsDir, { recursive: true });
  const file = path.join(context.artifactsDir, name);
  const fd = fs.openSync(file, 'w');
  let failure: Error | null = null;
  try {
    const zip = new Zip((error, chunk) => {
      if (error) failure = error;
      else fs.writeSync(fd, chunk);
    });
    const encoder = new TextEncoder();
    pages.forEach((page, index) => {
      const layout = context.reader.layout(page.id, context.typeNames);
      if (layout.skipped > 0) {
        context.log(
          `${page.name}: ${layout.skipped} element(s) without a polygon on its image left out`,
        );
      }
      const entry = new ZipDeflate(names[index]!, { level: 6 });
      zip.add(entry);
      entry.push(encoder.encode(write(layout)), true);
      if ((index + 1) % 50 === 0) context.log(`${index + 1} of ${pages.length} page(s) written`);
    });
    zip.end();
  } finally {
    fs.closeSync(fd);
  }
  if (failure) throw failure;
  return file;
}

/** The URL of a page image at full size: Folia's own through the task's server. */
function imageUrl(context: OutputContext, image: ExportImage): string {
  const stored = image.server_name === 'Folia' && image.url === `${image.server_url}/${image.id}`;
  // Folia's IIIF server serves 'max' (capped to its largest side); 'full' is IIIF 2's everywhere.
  return stored
    ? `${context.foliaRoot}iiif/${image.id}/full/max/0/default.jpg`
    : `${image.url}/full/full/0/default.jpg`;
}

async function pdf(context: OutputContext): Promise<Uint8Array> {
  const pages: PdfPage[] = [];
  for (const layout of layouts(context, pagesOf(context))) {
    let image: PdfPage['image'] = null;
    const page = context.reader.element(layout.pageId);
    const stored = page?.image_id ? context.reader.image(page.image_id) : undefined;
    if (context.settings.pageImages && stored) {
      const url = imageUrl(context, stored);
      try {
        const response = await context.api.fetch('GET', url);
        image = {
          bytes: new Uint8Array(await response.arrayBuffer()),
          mime: response.headers.get('content-type') ?? 'image/jpeg',
        };
      } catch (error) {
        context.log(
          `${layout.pageName}: the image could not be read (${(error as Error).message})`,
        );
      }
    }
    pages.push({ layout, image });
  }
  return writePdf(pages, { title: context.title, onWarning: context.log });
}

/** Written a batch of rows at a time, so a project of any size never sits whole in memory. */
function csv(context: OutputContext, file: string): string {
  const { reader, settings } = context;
  const fields = settings.fields;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, csvHeader(fields));
  let rows = 0;
  // A batch of elements at a time, so their texts and classes come in a few queries.
  let batch: WalkedElement[] = [];
  const images = new Map<string, string | null>();
  const flush = () => {
    const ids = batch.map((item) => item.element.id);
    const texts = reader.transcriptions(ids);
    const classes = reader.classifications(ids);
    let text = '';
    for (const { element, parent, page } of batch) {
      const chosen = texts.get(element.id);
      let imageUrl: string | null = null;
      if (element.image_id) {
        if (!images.has(element.image_id)) {
          images.set(element.image_id, reader.image(element.image_id)?.url ?? null);
        }
        imageUrl = images.get(element.image_id) ?? null;
      }
      const row: CsvElement = {
        id: element.id,
        name: element.name,
        type: element.type,
        parent_id: parent?.id ?? null,
        parent_name: parent?.name ?? null,
        page_id: page?.id ?? null,
        page_name: page?.name ?? null,
        image_url: imageUrl,
        polygon: element.image_id ? element.polygon : null,
        text: chosen?.text ?? null,
        text_confidence: chosen?.confidence ?? null,
        text_worker_run_id: chosen?.worker_run_id ?? null,
        classifications: (classes.get(element.id) ?? []).join('; ') || null,
        created: isoTime(element.created),
        updated: isoTime(element.updated),
      };
      text += csvRow(row, fields);
      rows += 1;
    }
    fs.appendFileSync(file, text);
    batch = [];
  };
  for (const item of reader.walk(context.roots)) {
    batch.push(item);
    if (batch.length >= 500) flush();
  }
  flush();
  if (rows === 0) {
    fs.rmSync(file, { force: true });
    throw new Error('The chosen elements are not in the export: nothing to write.');
  }
  context.log(`${rows} element(s) written`);
  return file;
}

/** Writes the format's file and returns its path. */
export async function writeOutput(format: Format, context: OutputContext): Promise<string> {
  const name = OUTPUT_FILES[format];
  switch (format) {
    case 'pagexml':
      return xmlArchive(context, name, (layout) => writePageXml(layout));
    case 'alto':
      return xmlArchive(context, name, (layout) => writeAlto(layout));
    case 'pdf':
      return writeArtifact(context, name, await pdf(context));
    case 'docx':
      return writeArtifact(
        context,
        name,
        await writeDocx(layouts(context, pagesOf(context)), { title: context.title }),
      );
    case 'csv':
      return csv(context, path.join(context.artifactsDir, name));
  }
}
