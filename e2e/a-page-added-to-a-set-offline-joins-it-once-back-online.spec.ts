/**
 * A folder taken offline: a page put in a set there shows in it at once and after a reload,
 * waits as one pending change, and joins the set on the server exactly once when the network
 * is back, between its neighbours.
 */
import { expect, test } from '@playwright/test';
import { ElementDatasets, folderTakenOffline, shot } from './support/datasets';

const DATASET = 'Offline additions';

test('a page added to a set offline shows in it after a reload and joins the set on the server once back online', async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const { server, pages, dataset } = await folderTakenOffline(page, DATASET);
  const [inDev, added] = [pages[4]!, pages[5]!];
  const datasets = new ElementDatasets(page);
  const posts: string[] = [];
  context.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes(`/datasets/${dataset.id}/`)) {
      posts.push(request.url());
    }
  });

  await test.step('offline, a page in no set is added to dev from its Datasets table', async () => {
    await context.setOffline(true);
    await page.goto(`/element/${added.id}`);
    await expect(page.getByRole('heading', { name: added.name, exact: true })).toBeVisible();
    await expect(page.getByText('You are offline')).toBeVisible();
    await expect(datasets.section.getByText('No datasets', { exact: true })).toBeVisible();
    await datasets.section.getByRole('button', { name: 'Add to dataset' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to dataset' });
    await expect(dialog.getByLabel('Dataset', { exact: true })).toHaveValue(dataset.id);
    await dialog.getByLabel('Set', { exact: true }).selectOption({ label: 'dev' });
    await shot(page, 'offline-add-1-modal');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await expect(dialog).toHaveCount(0);
    await expect(datasets.row(DATASET).getByRole('cell').nth(1)).toHaveText('dev');
    await expect(datasets.navbar.getByText('1 pending')).toBeVisible();
    expect(posts).toEqual([]);
  });

  await test.step('reloaded while still offline: still in dev, still one pending change', async () => {
    await page.reload();
    await expect(page.getByRole('heading', { name: added.name, exact: true })).toBeVisible();
    await expect(datasets.row(DATASET).getByRole('cell').nth(1)).toHaveText('dev');
    await expect(datasets.navbar.getByText('1 pending')).toBeVisible();
    await shot(page, 'offline-add-2-reloaded');
    expect(await server.setCount(dataset.id, 'dev')).toBe(1);
  });

  await test.step('back online, it joins dev on the server exactly once, after the page before it', async () => {
    await context.setOffline(false);
    await datasets.synced();
    await expect.poll(() => server.setCount(dataset.id, 'dev')).toBe(2);
    expect(await server.setMembers(dataset.id, 'dev')).toEqual([inDev.name, added.name]);
    const sets = await server.elementSets(added.id);
    expect(sets.map((entry) => `${entry.dataset.name}:${entry.set}`)).toEqual([`${DATASET}:dev`]);
    expect(posts).toHaveLength(1);
    await expect(datasets.previous('dev', DATASET)).toHaveAttribute('href', `/element/${inDev.id}`);
    await page.reload();
    await expect(datasets.row(DATASET).getByRole('cell').nth(1)).toHaveText('dev');
    await shot(page, 'offline-add-3-synced');
    expect(posts).toHaveLength(1);
    expect(await server.setCount(dataset.id, 'dev')).toBe(2);
  });
});
