import { expect, test, type Page } from '@playwright/test';
import { signInWithNewProject } from './support/pages';

interface Listed {
  name: string;
  results: { name: string }[];
}

async function serverJson(page: Page, path: string): Promise<Listed> {
  return page.evaluate(async (url) => (await fetch(url, { credentials: 'include' })).json(), path);
}

test('a rename and a new folder made offline survive a reload and reach the server once', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signInWithNewProject(page, 'Minutes 1742', 'reading-room');

  // Online: a top-level folder, opened once so this device has it.
  await page.getByRole('button', { name: 'New folder' }).click();
  const create = page.getByRole('dialog');
  await create.getByLabel('Name').fill('Box 1');
  await create.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('link', { name: 'Box 1', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Box 1', exact: true })).toBeVisible();
  const folderId = new URL(page.url()).pathname.split('/')[2]!;
  await page.evaluate(async () => navigator.serviceWorker.ready);
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await expect(page.getByRole('heading', { name: 'Box 1', exact: true })).toBeVisible();
  // The folder as the user saw it: its (empty) children and panels loaded, not still on the way
  // when the network goes (on a busy machine the heading shows well before them).
  await expect(page.getByText('No elements to display.')).toBeVisible();
  await expect(page.getByText('No transcription', { exact: true })).toBeVisible();
  await expect(page.getByText('No metadata', { exact: true })).toBeVisible();

  await context.setOffline(true);
  const status = page.getByRole('navigation', { name: 'Main' });
  await expect(page.getByText('You are offline')).toBeVisible();

  await page.getByRole('button', { name: 'Elements' }).click();
  await page.getByRole('menuitem', { name: 'Edit element' }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Name').fill('Box 1, sorted');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'Box 1, sorted', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Elements' }).click();
  await page.getByRole('menuitem', { name: 'New folder' }).click();
  const folder = page.getByRole('dialog');
  await folder.getByLabel('Name').fill('Deeds');
  await folder.getByRole('button', { name: 'Create' }).click();
  await expect(status.getByText('2 pending')).toBeVisible();

  // The tab reloads with the network still off: the edits are still there.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Box 1, sorted', exact: true })).toBeVisible();
  await expect(status.getByText('2 pending')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Deeds', exact: true })).toBeVisible();

  await context.setOffline(false);
  await expect(page.getByText('You are offline')).toBeHidden({ timeout: 20_000 });
  await expect(status.getByText(/pending/)).toBeHidden({ timeout: 20_000 });

  expect((await serverJson(page, `/api/v1/element/${folderId}/`)).name).toBe('Box 1, sorted');
  const children = await serverJson(page, `/api/v1/elements/${folderId}/children/`);
  expect(children.results.map((child) => child.name)).toEqual(['Deeds']);
});
