import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { SHARED_DATA_DIR } from '../tests/server/sharedData';
import { logIn, PASSWORD } from './support/annotation';
import { createUser, importWithCli, uniqueEmail } from './support/server';

/** The title page of Laube's "Die Krieger" (PAGE XML); one of its lines reads "Heinrich Laube." */
const SOURCE = path.join(SHARED_DATA_DIR, 'ocrd-gt_structure_text/laube_europa0202_1837/GT-PAGE');
const PAGE_FILE = 'laube_europa0202_1837_0007';

/** The number N of the list's "Items X to Y out of N results". */
async function resultCount(page: Page): Promise<number> {
  const text = await page
    .getByText(/^Items \d+ to \d+ out of \d+ results?$/)
    .first()
    .innerText();
  return Number(/out of (\d+)/.exec(text)![1]);
}

/** The project's owner makes it indexable, as the project settings would (an admin's toggle). */
async function makeIndexable(page: Page, corpusId: string): Promise<void> {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'arkindex.csrf')?.value;
  const response = await page.request.patch(`/api/v1/corpus/${corpusId}/`, {
    data: { indexable: true },
    headers: { 'x-csrftoken': csrf ?? '' },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test("a name is found in a project's pages, filtered by type, and opened on its line", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-search-'));
  for (const ext of ['jpg', 'xml'])
    fs.copyFileSync(
      path.join(SOURCE, `${PAGE_FILE}.${ext}`),
      path.join(folder, `${PAGE_FILE}.${ext}`),
    );
  const email = uniqueEmail('reader');
  createUser(email, PASSWORD);
  const project = `Die Krieger ${email}`;
  const corpusId = importWithCli(folder, project, email);
  await logIn(page, email);
  await makeIndexable(page, corpusId);

  await test.step('Search from the navbar, in the project picked', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Search' })
      .click();
    await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
    await page.getByRole('combobox', { name: 'Project' }).selectOption({ label: project });
    await expect(page).toHaveURL(new RegExp(`/search/${corpusId}$`));
  });

  await test.step('the help tells the syntax, a rule a line', async () => {
    await page.getByRole('button', { name: 'Search help' }).click();
    const help = page.getByRole('dialog', { name: 'Search help' });
    await expect(help.getByText('Hyphenated words count as two words.')).toBeVisible();
    await expect(help.getByText('(louis OR paris) AND roi')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('search-help.png') });
    await help.getByRole('button', { name: 'Close' }).click();
    await expect(help).toBeHidden();
  });

  const results = page.getByRole('list', { name: 'Search results' });
  const lineHit = results.getByRole('listitem').filter({ hasText: 'Heinrich Laube.' });
  let before = 0;
  await test.step('a word of a line finds it, the word marked', async () => {
    // Typed without its capital: the search folds case.
    await page.getByRole('searchbox', { name: 'Query' }).fill('laube');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\?query=laube$/);
    await expect(lineHit).toBeVisible({ timeout: 20_000 });
    await expect(lineHit.locator('mark')).toHaveText('Laube');
    // The page is found too, by its name (laube_europa0202_1837_0007).
    await expect(results.getByRole('link', { name: PAGE_FILE })).toBeVisible();
    before = await resultCount(page);
    expect(before).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: test.info().outputPath('search-results.png'), fullPage: true });
  });

  const facets = page.getByRole('complementary', { name: 'Facets' });
  const textLine: Locator = facets.getByRole('checkbox', { name: /^Text line/ });
  await test.step('the text line facet keeps only the lines', async () => {
    await textLine.check();
    await expect(page).toHaveURL(/element_type=text_line/);
    await expect(textLine).toBeChecked();
    await expect.poll(() => resultCount(page)).toBeLessThan(before);
    await expect(lineHit).toBeVisible();
    await expect(results.getByRole('link', { name: PAGE_FILE })).toHaveCount(0);
    // The other types stay offered with their counts, so a second one can be ticked too.
    const pageType = facets.getByRole('checkbox', { name: /^Page/ });
    await expect(pageType).not.toBeChecked();
    await page.screenshot({ path: test.info().outputPath('search-filtered.png'), fullPage: true });
    await pageType.check();
    await expect.poll(() => resultCount(page)).toBe(before);
    await expect(results.getByRole('link', { name: PAGE_FILE })).toBeVisible();
    await pageType.uncheck();
    await expect.poll(() => resultCount(page)).toBeLessThan(before);
  });

  await test.step('the hit opens its page with the line highlighted', async () => {
    const link = lineHit.getByRole('link').first();
    const lineName = await link.innerText();
    await link.click();
    await expect(page).toHaveURL(/\/element\/[0-9a-f-]{36}\?highlight=[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { name: PAGE_FILE, exact: true })).toBeVisible();
    await expect(page.getByText(`Selected: ${lineName}`)).toBeVisible({ timeout: 20_000 });
    await page.screenshot({ path: test.info().outputPath('hit-opened.png') });
  });

  await test.step('back returns to the filtered search', async () => {
    await page.goBack();
    await expect(textLine).toBeChecked();
    await expect(page.getByRole('searchbox', { name: 'Query' })).toHaveValue('laube');
    await expect(lineHit.locator('mark')).toHaveText('Laube');
    // On a phone the facets go above the results.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(lineHit).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('search-phone.png'), fullPage: true });
  });
});
