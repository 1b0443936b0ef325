import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { nowIso } from '../clock';
import type { Db } from '../db';
import { runImport } from '../imports/execute';
import type { ImportReport } from '../imports/report';
import { renderDemoPage } from './pageImage';
import { demoPageXml } from './pageXml';

export const DEMO_FOLDER_NAME = 'Register of deeds, 1789';
export const DEMO_PAGE_COUNT = 8;
export const DEMO_CLASSES = ['Deed of sale', 'Inventory', 'Lease', 'Receipt'] as const;

/**
 * Fills the demo project: generated pages written as images with PAGE XML and imported like a
 * user's files, then a few classes, each page classified as a model would have done it.
 */
export async function seedDemoContent(
  context: { db: Db; dataDir: string },
  corpusId: string,
  adminId: string,
): Promise<ImportReport> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folia-demo-'));
  try {
    for (let index = 1; index <= DEMO_PAGE_COUNT; index += 1) {
      const page = await renderDemoPage(index);
      const name = `Folio ${index}`;
      await fs.writeFile(path.join(dir, `${name}.jpg`), page.jpeg);
      await fs.writeFile(path.join(dir, `${name}.xml`), demoPageXml(page, `${name}.jpg`));
    }
    const report = await runImport(context, dir, {
      corpusId,
      userId: adminId,
      parentId: null,
      folderName: DEMO_FOLDER_NAME,
    });
    await classifyPages(context.db, corpusId, report.folder_id!);
    return report;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function classifyPages(db: Db, corpusId: string, folderId: string): Promise<void> {
  const classes = DEMO_CLASSES.map((name) => ({ id: randomUUID(), corpus_id: corpusId, name }));
  await db.insertInto('ml_classes').values(classes).execute();
  const pages = await db
    .selectFrom('element_links')
    .select('child_id')
    .where('parent_id', '=', folderId)
    .orderBy('position')
    .execute();
  const now = nowIso();
  await db
    .insertInto('classifications')
    .values(
      pages.map((page, i) => {
        // Deterministic confidences spread over the tag's three colours.
        const confidence = [0.97, 0.84, 0.66, 0.91, 0.58, 0.88, 0.95, 0.73][i % 8]!;
        return {
          id: randomUUID(),
          element_id: page.child_id,
          ml_class_id: classes[i % classes.length]!.id,
          state: 'pending' as const,
          confidence,
          high_confidence: confidence > 0.9 ? 1 : 0,
          worker_run_id: null,
          creator_id: null,
          moderator_id: null,
          created: now,
          updated: now,
        };
      }),
    )
    .execute();
}
