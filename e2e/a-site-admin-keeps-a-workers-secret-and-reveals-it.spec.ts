import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AccountPages } from './support/pages';
import { startEnterpriseServer, type EnterpriseServer } from './support/enterpriseServer';
import { uniqueEmail } from './support/server';

const PASSWORD = 'correct horse battery';
const VALUE = 'sk-e2e-0cr-service-5ecret-31d7';

let server: EnterpriseServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startEnterpriseServer();
});

test.afterAll(async () => {
  await server?.close();
});

test('a site admin keeps a worker secret, reveals it on its page, then deletes it', async ({
  page,
}) => {
  const email = uniqueEmail('secrets-admin');
  server.createUser(email, PASSWORD, { admin: true, displayName: 'Secret keeper' });

  await page.goto(`${server.origin}/user/login`);
  await new AccountPages(page).logIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/browse\/$/);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Secret keeper' })
    .click();
  await page.getByRole('menuitem', { name: 'Secrets' }).click();
  await expect(page).toHaveURL(`${server.origin}/secret/`);
  await expect(page.getByText('There are no secrets yet.')).toBeVisible();

  await page.getByRole('button', { name: 'Add a secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a secret' });
  await dialog.getByLabel('Name').fill('ocr/service/key');
  await dialog.getByLabel('Value').fill(VALUE);
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();
  const link = page.getByRole('link', { name: 'ocr/service/key' });
  await expect(link).toBeVisible();
  await expect(page.locator('body')).not.toContainText(VALUE);

  await link.click();
  await expect(page).toHaveURL(`${server.origin}/secret/ocr/service/key`);
  await expect(page.getByRole('heading', { name: 'ocr/service/key' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText(VALUE);
  await page.getByRole('button', { name: 'Reveal' }).click();
  await expect(page.getByLabel('Value', { exact: true })).toHaveText(VALUE);
  await page.getByRole('button', { name: 'Hide' }).click();
  await expect(page.locator('body')).not.toContainText(VALUE);

  // A reload opens the same page, the value hidden again.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Reveal' })).toBeVisible();
  await expect(page.locator('body')).not.toContainText(VALUE);

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(`${server.origin}/secret/`);
  await expect(page.getByText('There are no secrets yet.')).toBeVisible();

  // The value never reached the server's files in clear.
  for (const entry of fs.readdirSync(server.dataDir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(server.dataDir, entry);
    if (fs.statSync(file).isFile()) {
      expect(fs.readFileSync(file).includes(Buffer.from(VALUE)), file).toBe(false);
    }
  }
});
