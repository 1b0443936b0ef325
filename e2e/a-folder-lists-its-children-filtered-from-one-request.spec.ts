import { expect, test } from '@playwright/test';
import { ServerApi } from './support/annotation';
import { signInWithNewProject } from './support/pages';

test('a folder page asks once for its children, filters them from the address, and names the tab after the folder', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { corpusId } = await signInWithNewProject(page, 'Parish registers');
  const api = new ServerApi(page);
  const folder = await api.post<{ id: string }>('/elements/create/', {
    corpus: corpusId,
    type: 'folder',
    name: 'Register 1742',
  });
  for (const [type, name] of [
    ['page', '0005'],
    ['page', '0006'],
    ['folder', 'Loose leaves'],
  ]) {
    await api.post('/elements/create/', { corpus: corpusId, parent: folder.id, type, name });
  }

  const childrenRequests: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes(`/elements/${folder.id}/children/`))
      childrenRequests.push(request.url());
  });
  await page.goto(`/element/${folder.id}`);
  const list = page.getByRole('list', { name: 'Child elements' });
  await expect(list.getByRole('link', { name: 'Loose leaves' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(childrenRequests).toHaveLength(1);
  await expect(page).toHaveTitle('Register 1742 — Parish registers — Folia');

  await page.getByRole('combobox', { name: 'Filter' }).selectOption('type');
  await page.getByLabel('Value').fill('Page');
  await page.getByRole('button', { name: 'Add filter' }).click();
  await expect(page).toHaveURL(/[?&]type=page(&|$)/);
  await expect(list.getByRole('link', { name: '0005' })).toBeVisible();
  await expect(list.getByRole('link', { name: 'Loose leaves' })).toBeHidden();

  // The address alone gives the same view.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Remove filter Type' })).toBeVisible();
  await expect(list.getByRole('link', { name: '0006' })).toBeVisible();
  await expect(list.getByRole('link', { name: 'Loose leaves' })).toBeHidden();
});
