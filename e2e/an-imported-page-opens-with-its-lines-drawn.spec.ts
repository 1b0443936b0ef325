import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { AccountPages } from './support/pages';
import { createUser, importWithCli, uniqueEmail } from './support/server';

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

test('a register imported from the command line is browsed down to a page drawn with its lines', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('archivist');
  const password = 'reading room 1789';
  createUser(email, password);
  const corpusId = importWithCli(
    path.join(SHARED_DATA_DIR, 'lectaurep-bronod'),
    'Bronod registers',
    email,
  );

  await page.goto('/user/login');
  await new AccountPages(page).logIn(email, password);
  await expect(page).toHaveURL(/\/browse\/$/);
  await page.getByRole('link', { name: 'Bronod registers', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/browse/${corpusId}\\?top_level=true`));

  for (const folder of ['lectaurep-bronod', 'bronod1', 'page']) {
    await page.getByRole('link', { name: folder, exact: true }).click();
    await expect(page.getByRole('heading', { name: folder, exact: true })).toBeVisible();
  }
  await page.getByRole('link', { name: '0005', exact: true }).click();
  await expect(page).toHaveURL(/\/element\/[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { name: '0005', exact: true })).toBeVisible();

  // The page's regions are its children; their 37 lines are drawn on the image in the lines'
  // colour (about 34,000 pixels here, the page outline and the regions in other colours).
  await expect(page.getByText('MainZone').first()).toBeVisible();
  await expect.poll(() => lineColouredPixels(page), { timeout: 20_000 }).toBeGreaterThan(10_000);
  await page.screenshot({ path: test.info().outputPath('imported-page.png') });
});
