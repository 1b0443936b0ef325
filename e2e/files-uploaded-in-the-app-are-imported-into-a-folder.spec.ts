import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { signInWithNewProject } from './support/pages';

test('pages and their ALTO files uploaded in the app are imported into a new folder and opened', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { corpusId } = await signInWithNewProject(page, 'Pèlerinage', 'uploader');

  await page.goto(`/process/files/${corpusId}`);
  await expect(page.getByRole('heading', { name: 'Import files into Pèlerinage' })).toBeVisible();
  const folder = path.join(
    SHARED_DATA_DIR,
    'cremma-medieval',
    'pennsylvania_660-pelerinageMademoiselleSapience',
  );
  await page
    .getByLabel('Files to upload')
    .setInputFiles(
      [
        '0_36c2c_default.jpg',
        '0_36c2c_default.xml',
        '10_2cf05_default.jpg',
        '10_2cf05_default.xml',
      ].map((name) => path.join(folder, name)),
    );
  const start = page.getByRole('button', { name: 'Import 4 files' });
  await expect(start).toBeEnabled({ timeout: 30_000 });
  await page.getByLabel('Folder name').fill('Ms. Codex 660');
  await start.click();

  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible({
    timeout: 60_000,
  });
  const imported = page.getByRole('definition');
  await expect(imported).toHaveText(['1', '2', '5', '59', '59', '2']);
  await page.getByRole('link', { name: 'Open the imported folder' }).click();
  await expect(page.getByRole('heading', { name: 'Ms. Codex 660', exact: true })).toBeVisible();
  await page.getByRole('link', { name: '0_36c2c_default', exact: true }).click();
  await expect(page.getByRole('heading', { name: '0_36c2c_default', exact: true })).toBeVisible();
  await expect(page.getByText('MainZone').first()).toBeVisible();
});
