import path from 'node:path';
import { expect, test } from '@playwright/test';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { signInWithNewProject } from './support/pages';

const CREMMA = path.join(
  SHARED_DATA_DIR,
  'cremma-medieval',
  'pennsylvania_660-pelerinageMademoiselleSapience',
);
const BRONOD = path.join(SHARED_DATA_DIR, 'lectaurep-bronod', 'bronod1');

test('the Background jobs modal shows an import running and one finished, and clears the finished one', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const { corpusId } = await signInWithNewProject(page, 'Notaires', 'jobs');
  const navbar = page.getByRole('navigation', { name: 'Main' });
  // A new user has no jobs: no button.
  await expect(navbar.getByRole('button', { name: /Background jobs/ })).toHaveCount(0);

  // A small import, followed to its end.
  await page.goto(`/process/files/${corpusId}`);
  await page
    .getByLabel('Files to upload')
    .setInputFiles(['0_36c2c_default.jpg', '0_36c2c_default.xml'].map((f) => path.join(CREMMA, f)));
  await expect(page.getByRole('button', { name: 'Import 2 files' })).toBeEnabled({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Import 2 files' }).click();
  await expect(page.getByRole('heading', { name: 'Import finished' })).toBeVisible({
    timeout: 60_000,
  });
  await expect(navbar.getByRole('button', { name: 'Background jobs: 1' })).toBeVisible();

  // Three large scans with their PAGE files: an import that takes a while.
  await page.getByRole('button', { name: 'Import more files' }).click();
  await page
    .getByLabel('Files to upload')
    .setInputFiles([
      ...['0001.jpg', '0005.jpg', '0052.jpg'].map((f) => path.join(BRONOD, f)),
      ...['0001.xml', '0005.xml', '0052.xml'].map((f) => path.join(BRONOD, 'page', f)),
    ]);
  const start = page.getByRole('button', { name: 'Import 6 files' });
  await expect(start).toBeEnabled({ timeout: 30_000 });
  await start.click();
  await expect(page.getByRole('heading', { name: 'Importing…' })).toBeVisible();

  // The count follows at once, without waiting for the 10 s poll.
  await navbar.getByRole('button', { name: 'Background jobs: 2' }).click();
  const modal = page.getByRole('dialog', { name: 'Background jobs' });
  const rows = modal.getByRole('listitem');
  await expect(rows).toHaveCount(2);
  const running = rows.first();
  const finished = rows.last();
  await expect(running.getByText('Running')).toBeVisible({ timeout: 20_000 });
  await expect(running.getByRole('progressbar')).toBeVisible();
  await expect(running.getByRole('button', { name: /^Stop: / })).toBeVisible();
  await expect(running.getByText(/^Started \d+ seconds? ago$/)).toBeVisible();
  await expect(finished.getByText('Finished')).toBeVisible();
  await expect(finished.getByText(/^Ended \d+ seconds? ago$/)).toBeVisible();
  await expect(finished.getByRole('button', { name: /^Delete: / })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('background-jobs-running.png') });

  // The running import ends while the modal is open: its row says so, a Delete replaces Stop.
  await expect(running.getByText('Finished')).toBeVisible({ timeout: 90_000 });
  await expect(running.getByRole('progressbar')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('background-jobs-finished.png') });
  // On a phone the rows keep their buttons beside the descriptions.
  await page.setViewportSize({ width: 390, height: 760 });
  await expect(finished.getByRole('button', { name: /^Delete: / })).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('background-jobs-phone.png') });

  await finished.getByRole('button', { name: /^Delete: / }).click();
  await expect(rows).toHaveCount(1);
  await expect(navbar.getByRole('button', { name: 'Background jobs: 1' })).toBeVisible();
  await rows
    .first()
    .getByRole('button', { name: /^Delete: / })
    .click();
  await expect(modal.getByText('There are no background jobs.')).toBeVisible();
  await modal.getByRole('button', { name: 'Close' }).click();
  await expect(navbar.getByRole('button', { name: /Background jobs/ })).toHaveCount(0);
});
