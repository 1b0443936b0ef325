/**
 * A folder taken offline keeps its pages' datasets: a page taken out of its set there shows so
 * at once and after a reload, waits as one pending change, and leaves the set on the server
 * exactly once when the network is back.
 */
import { expect, test } from '@playwright/test';
import { DatasetPage, ElementDatasets, folderTakenOffline, shot } from './support/datasets';

const DATASET = 'Offline split';

test('a page taken out of its set offline stays out after a reload and leaves the set on the server once back online', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const { server, pages, dataset } = await folderTakenOffline(page, DATASET);
  const [before, removed, after] = [pages[0]!, pages[1]!, pages[2]!];
  const datasets = new ElementDatasets(page);

  const deletes: string[] = [];
  context.on('request', (request) => {
    if (request.method() === 'DELETE' && request.url().includes(`/datasets/${dataset.id}/`)) {
      deletes.push(request.url());
    }
  });

  await test.step('offline, a page never opened shows its set from the pack and is taken out of it', async () => {
    await context.setOffline(true);
    await page.goto(`/element/${removed.id}`);
    await expect(page.getByRole('heading', { name: removed.name, exact: true })).toBeVisible();
    await expect(page.getByText('You are offline')).toBeVisible();
    const row = datasets.row(DATASET);
    await expect(row.getByRole('cell').nth(1)).toHaveText('train');
    await expect(datasets.previous('train', DATASET)).toHaveAttribute(
      'href',
      `/element/${before.id}`,
    );
    await expect(datasets.next('train', DATASET)).toHaveAttribute('href', `/element/${after.id}`);
    await shot(page, 'offline-1-before-removal');
    await datasets.remove('train', DATASET);
    await expect(datasets.row(DATASET)).toHaveCount(0);
    await expect(datasets.section.getByText('No datasets', { exact: true })).toBeVisible();
    await expect(datasets.navbar.getByText('1 pending')).toBeVisible();
    await shot(page, 'offline-2-removed');
    expect(deletes).toEqual([]);
  });

  await test.step('reloaded while still offline: still out of the set, still one pending change', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: removed.name, exact: true })).toBeVisible();
    await expect(datasets.section.getByText('No datasets', { exact: true })).toBeVisible();
    await expect(datasets.row(DATASET)).toHaveCount(0);
    await expect(datasets.navbar.getByText('1 pending')).toBeVisible();
    await shot(page, 'offline-3-reloaded');
    expect(await server.setCount(dataset.id, 'train')).toBe(4);
  });

  await test.step('back online, the removal reaches the server exactly once', async () => {
    await context.setOffline(false);
    await datasets.synced();
    await expect.poll(() => server.setCount(dataset.id, 'train')).toBe(3);
    expect(await server.elementSets(removed.id)).toEqual([]);
    expect(await server.setMembers(dataset.id, 'train')).toEqual([
      before.name,
      after.name,
      pages[3]!.name,
    ]);
    expect(await server.setCount(dataset.id, 'dev')).toBe(1);
    expect(deletes).toHaveLength(1);
    expect(deletes[0]).toContain(`/datasets/${dataset.id}/elements/${removed.id}/?set=train`);
    await expect(page.getByText('Someone changed this element on the server')).toHaveCount(0);
    await page.reload();
    await expect(datasets.section.getByText('No datasets', { exact: true })).toBeVisible();
    // The page before it now leads straight to the one after it.
    await page.goto(`/element/${before.id}`);
    await expect(datasets.next('train', DATASET)).toHaveAttribute('href', `/element/${after.id}`);
    await shot(page, 'offline-4-synced');
    expect(deletes).toHaveLength(1);
  });
});

test('the dataset page of a folder taken offline opens offline with its sets', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const { dataset } = await folderTakenOffline(page, DATASET);
  const datasetPage = new DatasetPage(page);
  await context.setOffline(true);
  await page.goto(`/dataset/${dataset.id}?set=train`);
  await expect(page.getByText('You are offline')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: DATASET })).toBeVisible();
  await expect(datasetPage.bar('train', 4)).toBeVisible();
  await expect(datasetPage.bar('dev', 1)).toBeVisible();
  await expect(datasetPage.list('train').getByRole('article')).toHaveCount(4);
  await datasetPage.tab('dev').click();
  await expect(datasetPage.list('dev').getByRole('article')).toHaveCount(1);
  await shot(page, 'offline-5-dataset-page');
});

test('a page taken out of its set offline is neither listed nor counted in train on the dataset page offline', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const { pages, dataset } = await folderTakenOffline(page, DATASET);
  const datasets = new ElementDatasets(page);
  const datasetPage = new DatasetPage(page);
  await context.setOffline(true);
  await page.goto(`/element/${pages[1]!.id}`);
  await expect(page.getByRole('heading', { name: pages[1]!.name, exact: true })).toBeVisible();
  await datasets.remove('train', DATASET);
  await expect(datasets.navbar.getByText('1 pending')).toBeVisible();

  await page.goto(`/dataset/${dataset.id}?set=train`);
  await expect(page.getByRole('heading', { level: 1, name: DATASET })).toBeVisible();
  await expect(datasetPage.list('train').getByRole('article')).toHaveCount(3);
  expect(await datasetPage.names('train')).toEqual([0, 2, 3].map((at) => pages[at]!.name));
  await shot(page, 'offline-6-dataset-page-after-removal');
  // The chart and the tab count what the list shows.
  await expect(datasetPage.bar('train', 3)).toBeVisible();
  await expect(datasetPage.tab('train')).toHaveText(/^train\s*3$/);
  await expect(datasetPage.bar('dev', 1)).toBeVisible();
});
