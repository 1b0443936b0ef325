import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { logIn, PASSWORD } from './support/annotation';
import { createUser, importWithCli, uniqueEmail } from './support/server';

const FROM_DEVICE = 'These results come from this device: what was taken offline or opened before.';

/** The project's owner makes it indexable, as the project settings would (an admin's toggle). */
async function makeIndexable(page: Page, corpusId: string): Promise<void> {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'arkindex.csrf')?.value;
  const response = await page.request.patch(`/api/v1/corpus/${corpusId}/`, {
    data: { indexable: true },
    headers: { 'x-csrftoken': csrf ?? '' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function search(page: Page, query: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Query' }).fill(query);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
}

test('a folder taken offline is searched on the device, and its hit opens offline', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('reading-room');
  createUser(email, PASSWORD);
  const project = `Bronod search ${email}`;
  // The notary register: its PAGE pages in the folder "page", the same pages in ALTO in "alto".
  const corpusId = importWithCli(path.join(SHARED_DATA_DIR, 'lectaurep-bronod'), project, email);

  await logIn(page, email);
  await makeIndexable(page, corpusId);
  const results = page.getByRole('list', { name: 'Search results' });
  // "du Breüil V^e Brussart", a line of page 0005, in both folders.
  const lineHit = results.getByRole('listitem').filter({ hasText: 'Brussart' });

  await test.step('online, the server finds the word in both folders', async () => {
    await page.goto(`/search/${corpusId}`);
    await search(page, 'breuil');
    await expect(lineHit).toHaveCount(2, { timeout: 30_000 });
    await expect(page.getByText(FROM_DEVICE)).toHaveCount(0);
  });

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
    // The service worker must control the page for the app and tiles to come from its caches.
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

  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));

  await test.step('offline, the device finds the word in the folder it holds', async () => {
    await context.setOffline(true);
    await page.goto(`/search/${corpusId}`);
    await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
    // Typed without its diaeresis: the device folds as the server does.
    await search(page, 'breuil');
    await expect(page.getByText(FROM_DEVICE)).toBeVisible({ timeout: 30_000 });
    // Only the PAGE folder was taken offline: its line, not the ALTO copy.
    await expect(lineHit).toHaveCount(1);
    await expect(lineHit.locator('mark')).toHaveText('Breüil');
    await expect(page.getByText(/^1 result$|out of 1 result$/).first()).toBeVisible();
    // The index was built and searched in a Web Worker.
    expect(
      workers.some((url) => /worker/i.test(url)),
      workers.join(', '),
    ).toBe(true);
    await page.screenshot({ path: test.info().outputPath('offline-results.png'), fullPage: true });
  });

  await test.step('a phrase and an operator work on the device too', async () => {
    await search(page, '"breuil v" + -wilmot');
    await expect(page.getByText(FROM_DEVICE)).toBeVisible();
    await expect(lineHit).toHaveCount(1);
    await search(page, 'breuil + wilmot');
    await expect(page.getByText('No results.').or(page.getByText(/^No result/))).toBeVisible();
  });

  await test.step('the hit opens its page offline, the line selected', async () => {
    await search(page, 'breuil');
    await expect(lineHit).toHaveCount(1);
    const link = lineHit.getByRole('link').first();
    const lineName = await link.innerText();
    await link.click();
    await expect(page).toHaveURL(/\/element\/[0-9a-f-]{36}\?highlight=[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: '0005', exact: true })).toBeVisible();
    await expect(page.getByText('You are offline')).toBeVisible();
    await expect(page.getByText(`Selected: ${lineName}`)).toBeVisible({ timeout: 20_000 });
    await page.screenshot({ path: test.info().outputPath('offline-hit-opened.png') });
  });

  await test.step('a transcription written offline is found at once, before it is sent', async () => {
    const form = page.getByRole('region', { name: 'New transcription' });
    await form.getByLabel('Text').fill('Quintefeuille écrite hors ligne');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByText('Quintefeuille écrite hors ligne')).toBeVisible();
    // Back to the search page without reloading it: the same worker, its index now stale.
    await page.goBack();
    await expect(lineHit).toHaveCount(1);
    await search(page, 'quintefeuille');
    const written = results.getByRole('listitem').filter({ hasText: 'hors ligne' });
    await expect(written).toHaveCount(1);
    await expect(written.locator('mark')).toHaveText('Quintefeuille');
    await expect(page.getByText(FROM_DEVICE)).toBeVisible();
    await page.screenshot({
      path: test.info().outputPath('offline-edit-found.png'),
      fullPage: true,
    });
  });
});
