import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signInWithBlankPage } from './support/annotation';

test('a project export is started, downloaded once done, and deleted', async ({ page }) => {
  test.setTimeout(120_000);
  const blank = await signInWithBlankPage(page, 'Exported letters', 'exporter');
  await page.goto(`/element/${blank.pageId}`);

  const modal = page.getByRole('dialog', { name: 'Project exports' });
  await test.step("the page's menu opens the project's exports, none yet", async () => {
    await page
      .getByRole('navigation', { name: 'Element navigation' })
      .getByRole('button', { name: 'Import/Export' })
      .click();
    await page.getByRole('menuitem', { name: 'Project exports' }).click();
    await expect(modal.getByText('No exports to display.')).toBeVisible();
  });

  const row = modal.getByRole('row').nth(1);
  await test.step('an export is started, and shows done once the server has built it', async () => {
    await modal.getByRole('button', { name: 'Start export' }).click();
    await expect(row).toContainText(/Created|Running|Done/);
    // The server builds it in the background; the list reads it again until it is done.
    await expect(row.getByText('Done', { exact: true })).toBeVisible({ timeout: 60_000 });
    await expect(modal.getByRole('row')).toHaveCount(2);
  });

  await test.step('the download is the SQLite file', async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.sqlite$/);
    const file = await download.path();
    const head = fs.readFileSync(file).subarray(0, 16).toString('latin1');
    expect(head).toBe('SQLite format 3\0');
  });

  await test.step('the export is deleted once the confirmation says so', async () => {
    await row.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete export' });
    await expect(confirm.getByText(/Are you sure you want to delete/)).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(confirm).toBeHidden();
    await expect(modal.getByText('No exports to display.')).toBeVisible();
  });
});
