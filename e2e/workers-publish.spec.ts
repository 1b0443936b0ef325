import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, ServerApi, logIn } from './support/annotation';
import { createUser, uniqueEmail } from './support/server';
import { grantWorkerManagement } from './support/workerManager';

test.use({ viewport: { width: 1280, height: 900 } });

interface Version {
  id: string;
  version: number | null;
  state: string;
  tag: string | null;
  configuration: { user_configuration?: unknown };
}

const SCHEMA = {
  threshold: { title: 'Threshold', type: 'float', default: 0.5 },
  direction: {
    title: 'Direction',
    type: 'enum',
    choices: ['horizontal', 'vertical'],
    default: 'horizontal',
  },
};

async function openWorkers(page: Page, who: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: who }).click();
  await page.getByRole('menuitem', { name: 'Workers' }).click();
  await expect(page.getByRole('heading', { name: 'Workers', level: 1 })).toBeVisible();
}

test('a worker manager publishes a worker and a version with settings in the app; a plain user cannot', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const shots = test.info().outputPath();
  const suffix = Date.now().toString(36);
  const name = `Page splitter ${suffix}`;
  const email = uniqueEmail('worker-manager');
  createUser(email, PASSWORD, { displayName: 'Worker Manager' });
  grantWorkerManagement(email);
  await logIn(page, email);
  const api = new ServerApi(page);
  const dialog = page.getByRole('dialog');

  await test.step('the worker is created from the workers list, its slug suggested', async () => {
    await openWorkers(page, 'Worker Manager');
    await page.getByRole('button', { name: 'Create a worker' }).click();
    await expect(dialog.getByRole('heading', { name: 'Create a worker' })).toBeVisible();
    await dialog.getByLabel(/^Name/).fill(name);
    await expect(dialog.getByLabel(/^Slug/)).toHaveValue(`page-splitter-${suffix}`);
    await dialog.getByLabel(/^Type/).fill(`splitter-${suffix}`);
    await dialog.getByLabel('Description').fill('Cuts double pages in two.');
    await dialog.getByLabel('Repository URL').fill('https://git.example.org/splitter');
    await page.screenshot({ path: `${shots}/create-worker.png` });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByText('This worker has no version yet.')).toBeVisible();
  });

  await test.step('the same slug again says the worker exists and links it', async () => {
    await openWorkers(page, 'Worker Manager');
    await page.getByRole('button', { name: 'Create a worker' }).click();
    await dialog.getByLabel(/^Name/).fill(name);
    await dialog.getByLabel(/^Type/).fill('recognizer');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const exists = dialog.getByRole('alert');
    await expect(exists).toContainText(
      `A worker with the slug page-splitter-${suffix} already exists: nothing was created.`,
    );
    await page.screenshot({ path: `${shots}/worker-exists.png` });
    await exists.getByRole('link', { name: `Open ${name}` }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(dialog).toHaveCount(0);
  });

  let versionId = '';
  await test.step('a version is created with a schema checked as it is typed', async () => {
    await page.getByRole('button', { name: 'New version' }).click();
    await expect(dialog.getByRole('heading', { name: `New version of ${name}` })).toBeVisible();
    await dialog.getByLabel('Tag').fill('v1.0');
    await dialog.getByLabel('GPU usage').selectOption('supported');
    const schema = dialog.getByLabel('Settings schema (JSON)');
    await schema.fill(JSON.stringify({ ...SCHEMA, colour: { title: 'Colour', type: 'colour' } }));
    const problems = dialog.getByRole('list', { name: 'Schema problems' });
    await expect(problems).toContainText('colour.type: Unknown field type');
    await expect(dialog.getByRole('button', { name: 'Create' })).toBeDisabled();
    await page.screenshot({ path: `${shots}/new-version-problems.png` });
    await schema.fill(JSON.stringify(SCHEMA, null, 2));
    await expect(problems).toHaveCount(0);
    await page.screenshot({ path: `${shots}/new-version.png` });
    await dialog.getByRole('button', { name: 'Create' }).click();

    await expect(page).toHaveURL(/\/process\/worker-version\//);
    versionId = page.url().split('/worker-version/')[1]!.split(/[?#/]/)[0]!;
    const details = page.getByRole('region', { name: 'Details' });
    await expect(details).toContainText('v1.0');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
    const saved = await api.get<Version>(`/workers/versions/${versionId}/`);
    expect(saved).toMatchObject({
      version: 1,
      state: 'created',
      tag: 'v1.0',
      configuration: { user_configuration: SCHEMA },
    });
  });

  await test.step('the version is made available', async () => {
    await page.getByRole('button', { name: 'Make available' }).click();
    await expect(page.getByText('The version is now available.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Make available' })).toHaveCount(0);
    await page.screenshot({ path: `${shots}/version-available.png`, fullPage: true });
    expect((await api.get<Version>(`/workers/versions/${versionId}/`)).state).toBe('available');
  });

  await test.step('a configuration is built from that schema', async () => {
    await page.getByRole('region', { name: 'Details' }).getByRole('link', { name }).click();
    await expect(page.getByRole('table', { name: 'Versions' })).toContainText('v1.0');
    await page.getByRole('button', { name: 'New configuration' }).click();
    await expect(dialog.getByLabel(/^Threshold/)).toHaveValue('0.5');
    await dialog.getByLabel(/^Name/).fill(`Vertical ${suffix}`);
    await dialog.getByLabel(/^Direction/).selectOption('vertical');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(
      dialog.getByRole('heading', { name: `Configuration Vertical ${suffix}` }),
    ).toBeVisible();
    const worker = (
      await api.get<{ results: { id: string; slug: string }[] }>(`/workers/?name=${suffix}`)
    ).results.find((item) => item.slug === `page-splitter-${suffix}`)!;
    const configurations = await api.get<{ results: { name: string; configuration: unknown }[] }>(
      `/workers/${worker.id}/configurations/`,
    );
    expect(configurations.results).toEqual([
      expect.objectContaining({
        name: `Vertical ${suffix}`,
        configuration: { threshold: 0.5, direction: 'vertical' },
      }),
    ]);
  });

  await test.step('a plain user sees neither Create a worker nor New version', async () => {
    const workerUrl = page.url().split('?')[0]!;
    const plainEmail = uniqueEmail('plain');
    createUser(plainEmail, PASSWORD, { displayName: 'Plain Reader' });
    const context = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      viewport: { width: 1280, height: 900 },
    });
    try {
      const other = await context.newPage();
      await logIn(other, plainEmail);
      await openWorkers(other, 'Plain Reader');
      await other.getByLabel('Search by name').fill(suffix);
      await other.getByRole('button', { name: 'Search' }).click();
      await expect(other.getByRole('link', { name, exact: true })).toBeVisible();
      await expect(other.getByRole('button', { name: 'Create a worker' })).toHaveCount(0);
      await other.goto(workerUrl);
      await expect(other.getByRole('table', { name: 'Versions' })).toContainText('v1.0');
      await expect(other.getByRole('button', { name: 'New version' })).toHaveCount(0);
      await other.screenshot({ path: `${shots}/plain-user-worker.png` });
    } finally {
      await context.close();
    }
  });
});
