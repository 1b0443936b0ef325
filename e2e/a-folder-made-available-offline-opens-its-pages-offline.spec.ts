import path from 'node:path';
import sharp from 'sharp';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { AccountPages } from './support/pages';
import { createUser, importWithCli, uniqueEmail } from './support/server';

/**
 * How much the viewer's picture varies, zones hidden: a blank viewer is one flat colour, a
 * page of handwriting is not.
 */
async function imageContrast(page: Page): Promise<number> {
  const viewer = page.getByTestId('image-viewer');
  await page
    .getByTestId('zone-overlay')
    .evaluate((canvas: HTMLCanvasElement) => (canvas.style.visibility = 'hidden'));
  const { channels } = await sharp(await viewer.screenshot()).stats();
  await page
    .getByTestId('zone-overlay')
    .evaluate((canvas: HTMLCanvasElement) => (canvas.style.visibility = ''));
  return Math.max(...channels.slice(0, 3).map((channel) => channel.stdev));
}

/** Pixels of the zone overlay drawn in the text lines' colour (blue, #1f78b4). */
async function lineColouredPixels(page: Page): Promise<number> {
  return page.getByTestId('zone-overlay').evaluate((canvas: HTMLCanvasElement) => {
    const context = canvas.getContext('2d');
    if (!context || canvas.width === 0 || canvas.height === 0) return 0;
    const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
      if (a > 0 && b > r + 60 && b > g + 20) drawn += 1;
    }
    return drawn;
  });
}

test('a folder made available offline opens each of its pages offline, image and lines', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('reading-room');
  const password = 'reading room 1789';
  createUser(email, password);
  importWithCli(path.join(SHARED_DATA_DIR, 'lectaurep-bronod'), 'Bronod offline pack', email);

  await page.goto('/user/login');
  await new AccountPages(page).logIn(email, password);
  await page.getByRole('link', { name: 'Bronod offline pack', exact: true }).click();
  for (const folder of ['lectaurep-bronod', 'bronod1', 'page']) {
    await page.getByRole('link', { name: folder, exact: true }).click();
    await expect(page.getByRole('heading', { name: folder, exact: true })).toBeVisible();
  }
  const pages: { name: string; url: string }[] = [];
  for (const name of ['0001', '0005', '0052']) {
    const href = await page.getByRole('link', { name, exact: true }).getAttribute('href');
    pages.push({ name, url: href! });
  }
  // The service worker must control the page for the tiles to come from its caches.
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  await page.getByRole('button', { name: 'Display' }).click();
  await page.getByRole('menuitem', { name: 'Make available offline' }).click();
  const dialog = page.getByRole('dialog', { name: 'Make available offline' });
  const estimate = dialog.getByTestId('pack-estimate');
  await expect(estimate).toHaveText(
    /^[\d,]+ elements, 3 images \([\d,]+ tiles\): about [\d.]+ [KM]B\.$/,
    {
      timeout: 30_000,
    },
  );
  const estimated = await estimate.textContent();
  const started = Date.now();
  await dialog.getByRole('button', { name: 'Download' }).click();
  const done = dialog.getByText(/^Available offline: /);
  await expect(done).toBeVisible({ timeout: 120_000 });
  const seconds = (Date.now() - started) / 1000;
  const result = await done.textContent();
  test.info().annotations.push({
    type: 'pack',
    description: `${estimated} → ${result} in ${seconds.toFixed(1)} s`,
  });
  console.log(`offline pack: ${estimated} → ${result} in ${seconds.toFixed(1)} s`);
  await expect(dialog.getByRole('link', { name: 'page', exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('dialog.png') });
  await dialog.getByRole('button', { name: 'Close' }).click();

  await context.setOffline(true);
  for (const { name, url } of pages) {
    // Pages never opened before: everything comes from the pack.
    await page.goto(url);
    await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
    await expect(page.getByText('You are offline')).toBeVisible();
    await expect
      .poll(() => imageContrast(page), { timeout: 20_000, message: `${name}: the image` })
      .toBeGreaterThan(12);
    await expect
      .poll(() => lineColouredPixels(page), { timeout: 20_000, message: `${name}: the lines` })
      .toBeGreaterThan(1_000);
    await page.screenshot({ path: test.info().outputPath(`offline-${name}.png`) });
  }
});
