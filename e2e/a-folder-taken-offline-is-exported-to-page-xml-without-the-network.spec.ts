import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { expect, test } from '@playwright/test';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { logIn, PASSWORD } from './support/annotation';
import { createUser, importWithCli, uniqueEmail } from './support/server';

const SOURCE = path.join(SHARED_DATA_DIR, 'lectaurep-bronod', 'bronod1', 'page');
const SCHEMAS_DIR = path.resolve(SHARED_DATA_DIR, '..', 'schemas');
const PAGE_XSD = path.join(SCHEMAS_DIR, 'page-2019-07-15.xsd');
const CATALOG = path.join(SCHEMAS_DIR, 'catalog.xml');

function decodeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
    if (entity[0] !== '#') return named[entity.toLowerCase()]!;
    const hex = entity[1]?.toLowerCase() === 'x';
    return String.fromCodePoint(parseInt(entity.slice(hex ? 2 : 1), hex ? 16 : 10));
  });
}

/** Each TextLine's text, in the file's order. */
function lineTexts(xml: string): string[] {
  return [...xml.matchAll(/<TextLine\b[\s\S]*?<\/TextLine>/g)].map((match) =>
    decodeXml(/<Unicode>([\s\S]*?)<\/Unicode>/.exec(match[0])?.[1] ?? ''),
  );
}

test('a folder taken offline is exported to PAGE XML on the device, without the network', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('offline-export');
  createUser(email, PASSWORD);
  const project = `Bronod export ${email}`;
  importWithCli(path.join(SHARED_DATA_DIR, 'lectaurep-bronod'), project, email);
  await logIn(page, email);

  await test.step('the folder "page" is made available offline', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Projects' })
      .click();
    await page.getByRole('link', { name: project, exact: true }).click();
    for (const folder of ['lectaurep-bronod', 'bronod1', 'page']) {
      await page.getByRole('link', { name: folder, exact: true }).click();
      await expect(page.getByRole('heading', { name: folder, exact: true })).toBeVisible();
    }
    // The service worker must control the page for the app to come from its caches offline.
    await page.evaluate(async () => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.getByRole('button', { name: 'Display' }).click();
    await page.getByRole('menuitem', { name: 'Make available offline' }).click();
    const dialog = page.getByRole('dialog', { name: 'Make available offline' });
    await expect(dialog.getByTestId('pack-estimate')).toBeVisible({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Download' }).click();
    await expect(dialog.getByText(/^Available offline: /)).toBeVisible({ timeout: 120_000 });
    await dialog.getByRole('button', { name: 'Close' }).click();
  });

  const files = await test.step('offline, it is exported from the storage panel', async () => {
    await context.setOffline(true);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'page', exact: true })).toBeVisible();
    await expect(page.getByText('You are offline')).toBeVisible();
    await page.getByRole('button', { name: 'Display' }).click();
    await page.getByRole('menuitem', { name: 'Make available offline' }).click();
    const dialog = page.getByRole('dialog', { name: 'Make available offline' });
    const packs = dialog.getByRole('list', { name: 'Available offline' });
    await packs.getByRole('button', { name: 'Export page', exact: true }).click();
    const menu = packs.getByRole('menu', { name: 'Export page as' });
    await expect(menu.getByRole('menuitem')).toHaveText(['PAGE XML', 'ALTO', 'CSV']);
    await page.screenshot({ path: test.info().outputPath('export-menu.png') });
    const download = page.waitForEvent('download');
    await menu.getByRole('menuitem', { name: 'PAGE XML' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('page-page.zip');
    const saved = test.info().outputPath('page-page.zip');
    await file.saveAs(saved);
    await expect(dialog.getByRole('alert')).toHaveCount(0);

    // The same pack as CSV: a header, then a row per element the pack holds.
    await packs.getByRole('button', { name: 'Export page', exact: true }).click();
    const csvDownload = page.waitForEvent('download');
    await menu.getByRole('menuitem', { name: 'CSV' }).click();
    const csv = await csvDownload;
    expect(csv.suggestedFilename()).toBe('page.csv');
    const csvPath = test.info().outputPath('page.csv');
    await csv.saveAs(csvPath);
    const rows = fs.readFileSync(csvPath, 'utf8').split('\r\n');
    expect(rows[0]).toMatch(/^id,name,type,parent_id,parent_name,page_id,page_name,/);
    const breuil = rows.find((row) => row.includes('Breüil'));
    expect(breuil, 'the line of 0005 naming Breüil').toMatch(/,text_line,.*,0005,/);
    return unzipSync(fs.readFileSync(saved));
  });

  await test.step("each page's file names its lines and their texts, and is valid PAGE", async () => {
    expect(Object.keys(files).sort()).toEqual(['0001.xml', '0005.xml', '0052.xml']);
    const canValidate = spawnSync('xmllint', ['--version']).status === 0 && fs.existsSync(PAGE_XSD);
    for (const [name, bytes] of Object.entries(files)) {
      const xml = strFromU8(bytes);
      const source = fs.readFileSync(path.join(SOURCE, name), 'utf8');
      // Every line, in reading order, with its text as imported.
      expect(lineTexts(xml), name).toEqual(lineTexts(source));
      expect(xml).toContain(`imageFilename="${name.replace('.xml', '.jpg')}"`);
      if (!canValidate) continue;
      const written = test.info().outputPath(name);
      fs.writeFileSync(written, bytes);
      const result = spawnSync('xmllint', ['--nonet', '--noout', '--schema', PAGE_XSD, written], {
        env: { ...process.env, XML_CATALOG_FILES: CATALOG },
        encoding: 'utf8',
      });
      expect(result.status, `${name}: ${result.stderr}`).toBe(0);
    }
  });
});
