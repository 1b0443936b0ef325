import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../playwright.config';
import { PASSWORD, ServerApi, logIn } from './support/annotation';
import { signInWithNewProject } from './support/pages';
import { createUser, uniqueEmail } from './support/server';

const viewport = { width: 1280, height: 900 };
test.use({ viewport });

/** Publishes a file as a tagged version of a model from the shell; prints the version id. */
function importModelWithCli(name: string, file: string, tag: string, owner: string): string {
  const output = execFileSync(
    'npm',
    [
      'run',
      '--silent',
      'cli',
      '--',
      'import-model',
      '--name',
      name,
      '--file',
      file,
      '--tag',
      tag,
      '--owner',
      owner,
    ],
    { env: { ...process.env, FOLIA_DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' }, stdio: 'pipe' },
  ).toString();
  const id = output.match(/[0-9a-f-]{36}/)?.[0];
  if (!id) throw new Error(`import-model printed no version id:\n${output}`);
  return id;
}

async function openUserMenuEntry(page: Page, displayName: string, entry: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: displayName })
    .click();
  await page.getByRole('menuitem', { name: entry }).click();
}

test('a model is created in the app, gets a version from the CLI and a compatible worker, and a guest reads it', async ({
  page,
  browser,
}, testInfo) => {
  // Two logins, a guest's and an admin's, and a CLI run: slow on a busy machine.
  test.setTimeout(180_000);
  const suffix = Date.now().toString(36);
  const modelName = `Line detector ${suffix}`;
  const ownerEmail = uniqueEmail('model-owner');
  createUser(ownerEmail, PASSWORD, { displayName: 'Model Owner' });

  // A worker to mark compatible, registered by a site admin through the API.
  const adminEmail = uniqueEmail('worker-admin');
  createUser(adminEmail, PASSWORD, { admin: true });
  const adminContext = await browser.newContext({ viewport });
  const adminPage = await adminContext.newPage();
  await logIn(adminPage, adminEmail);
  const worker = await new ServerApi(adminPage).post<{ id: string; name: string }>('/workers/', {
    name: `Kraken ${suffix}`,
    slug: `kraken-${suffix}`,
    type: 'recognizer',
  });
  await adminContext.close();

  // The owner creates the model from the models list, reached through the user menu.
  await logIn(page, ownerEmail);
  // The user menu's entries lead to their pages, not to placeholders.
  await openUserMenuEntry(page, 'Model Owner', 'Workers');
  await expect(page.getByRole('heading', { name: 'Workers', level: 1 })).toBeVisible();
  await openUserMenuEntry(page, 'Model Owner', 'Worker runs');
  await expect(page.getByRole('heading', { name: 'Worker runs', level: 1 })).toBeVisible();
  await openUserMenuEntry(page, 'Model Owner', 'Models');
  await expect(page.getByRole('heading', { name: 'Models', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/models$/);
  await page.getByRole('button', { name: 'Create a model' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a model' });
  const create = dialog.getByRole('button', { name: 'Create' });
  await expect(create).toBeDisabled();
  await dialog.getByLabel('Name').fill('   ');
  await expect(create).toBeDisabled();
  await dialog.getByLabel('Name').fill(`  ${modelName}  `);
  await dialog.getByLabel('Description').fill('Finds text lines on a page.');
  await create.click();
  await expect(page.getByRole('heading', { name: modelName, level: 1 })).toBeVisible();
  const modelId = new URL(page.url()).pathname.split('/')[2]!;
  await expect(page.getByText('This model has no versions yet.')).toBeVisible();

  // A version's archive is published from the shell.
  const archive = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folia-model-')), 'model.tar');
  const bytes = Buffer.alloc(4_321, 7);
  fs.writeFileSync(archive, bytes);
  const versionId = importModelWithCli(modelName, archive, 'v1', ownerEmail);
  await page.reload();
  const versions = page.getByRole('table', { name: 'Versions' });
  const row = versions.getByRole('row').filter({ hasText: 'v1' });
  await expect(row).toContainText('available');
  await expect(row).toContainText('4.3 KB');

  // Its page shows the hash and downloads the same bytes.
  await row.getByRole('link', { name: 'Version v1' }).click();
  await expect(page).toHaveURL(new RegExp(`/model-version/${versionId}$`));
  await expect(page.getByRole('heading', { name: 'Model version v1' })).toBeVisible();
  await expect(page.getByText(createHash('sha256').update(bytes).digest('hex'))).toBeVisible();
  const download = page.getByRole('link', { name: 'Download' });
  const href = (await download.getAttribute('href'))!;
  const response = await page.request.get(href);
  expect(response.status()).toBe(200);
  expect(Buffer.from(await response.body()).equals(bytes)).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('model-version.png'), fullPage: true });
  await page.getByRole('link', { name: modelName }).click();

  // A second version is uploaded from the app.
  await page.getByRole('button', { name: 'New version' }).click();
  const upload = page.getByRole('dialog', { name: 'New version' });
  await upload.getByLabel('Tag').fill('v2');
  await upload.getByLabel('Archive').setInputFiles({
    name: 'model-v2.tar',
    mimeType: 'application/x-tar',
    buffer: Buffer.alloc(12_000, 3),
  });
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Version v2 is available.')).toBeVisible();
  const second = versions.getByRole('row').filter({ hasText: 'v2' });
  await expect(second).toContainText('available');
  await expect(second).toContainText('12 KB');

  // The owner links the worker.
  const workers = page.getByRole('region', { name: 'Compatible workers' });
  await workers.getByLabel('Search workers').fill(`kraken-${suffix}`);
  await workers
    .getByLabel('Worker to add')
    .selectOption({ label: `${worker.name} (kraken-${suffix})` });
  await workers.getByRole('button', { name: 'Add' }).click();
  await expect(workers.getByRole('listitem')).toHaveText([
    `${worker.name} kraken-${suffix} · recognizerRemove`,
  ]);

  // The models list finds it by that worker.
  await page.goto(`/models?compatible_worker=${worker.id}`);
  await expect(page.getByRole('link', { name: modelName })).toBeVisible();

  // The owner, the model's admin, makes a guest of another user.
  const guestEmail = uniqueEmail('model-guest');
  createUser(guestEmail, PASSWORD, { displayName: 'Model Guest' });
  await page.getByRole('link', { name: modelName }).click();
  const members = page.getByRole('region', { name: 'Members' });
  await members.getByLabel('E-mail address').fill(guestEmail);
  await members.getByLabel('Role').selectOption({ label: 'Guest' });
  await members.getByRole('button', { name: 'Add member' }).click();
  await expect(members.getByRole('row').filter({ hasText: guestEmail })).toContainText('Guest');

  // The guest reads everything, changes nothing, and is told why.
  const guestContext = await browser.newContext({ viewport });
  const guestPage = await guestContext.newPage();
  await logIn(guestPage, guestEmail);
  await guestPage.goto(`/model/${modelId}`);
  await expect(
    guestPage.getByText('A contributor access level is required to edit a model'),
  ).toBeVisible();
  await expect(guestPage.getByLabel('Name')).toHaveValue(modelName);
  await expect(guestPage.getByLabel('Name')).toBeDisabled();
  await expect(guestPage.getByLabel('Description')).toBeDisabled();
  await expect(guestPage.getByRole('button', { name: 'Update' })).toHaveCount(0);
  await expect(guestPage.getByRole('link', { name: 'Version v1' })).toBeVisible();
  const guestWorkers = guestPage.getByRole('region', { name: 'Compatible workers' });
  await expect(guestWorkers.getByText(worker.name)).toBeVisible();
  await expect(guestWorkers.getByRole('button', { name: /Remove/ })).toHaveCount(0);
  await guestPage.screenshot({ path: testInfo.outputPath('guest-model.png'), fullPage: true });
  const refused = await guestPage.request.patch(`/api/v1/model/${modelId}/`, {
    data: { name: 'Renamed by a guest' },
    headers: {
      'x-csrftoken':
        (await guestContext.cookies()).find((cookie) => cookie.name === 'arkindex.csrf')?.value ??
        '',
    },
  });
  expect(refused.status()).toBe(403);
  await guestContext.close();
  await page.screenshot({ path: testInfo.outputPath('owner-model.png'), fullPage: true });
});

test('a project admin schedules the deletion of worker results, after the advanced mode checks', async ({
  page,
}, testInfo) => {
  const signedIn = await signInWithNewProject(page, 'Results to clean');
  await page.getByRole('button', { name: 'Delete worker results' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete worker results' });
  await expect(dialog.getByText('Results to clean')).toBeVisible();
  await dialog.getByLabel('Advanced mode: enter the UUIDs').check();
  const remove = dialog.getByRole('button', { name: 'Delete' });

  await dialog.getByLabel('Worker version ID').fill('not a uuid');
  await expect(dialog.getByText('This value must be a valid UUID.')).toBeVisible();
  await expect(remove).toBeDisabled();
  await dialog.getByLabel('Worker version ID').fill('');
  await dialog.getByRole('radio', { name: 'This configuration' }).check();
  await expect(dialog.getByText('This value must be set.')).toBeVisible();
  await expect(remove).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath('worker-results-modal.png') });
  await dialog.getByRole('radio', { name: 'No configuration' }).check();
  await expect(dialog.getByText('This value must be set.')).toHaveCount(0);

  const sent = page.waitForRequest(
    (request) =>
      request.method() === 'DELETE' &&
      request.url().includes(`/corpus/${signedIn.corpusId}/worker-results/`),
  );
  await remove.click();
  expect(new URL((await sent).url()).searchParams.get('configuration_id')).toBe('false');
  await expect(page.getByText('Worker results deletion has been scheduled.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect
    .poll(async () => {
      const jobs = (await (await page.request.get('/api/v1/jobs/')).json()) as
        { description: string }[] | { results: { description: string }[] };
      const list = Array.isArray(jobs) ? jobs : jobs.results;
      return list.map((job) => job.description);
    })
    .toContain('Deleting worker results in Results to clean');
});
