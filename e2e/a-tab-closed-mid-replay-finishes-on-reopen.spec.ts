import { expect, test, type Page } from '@playwright/test';
import { signInWithNewProject } from './support/pages';

async function newFolder(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Elements' }).click();
  await page.getByRole('menuitem', { name: 'New folder' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
}

test('a tab closed while its edits replay finishes them on reopen, none applied twice', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signInWithNewProject(page, 'Closed tab', 'closer');
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Box');
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await page.getByRole('link', { name: 'Box', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Box', exact: true })).toBeVisible();
  const boxUrl = page.url();
  const boxId = new URL(boxUrl).pathname.split('/')[2]!;

  await context.setOffline(true);
  await expect(page.getByText('You are offline')).toBeVisible();
  for (const name of ['Deeds', 'Leases', 'Receipts']) await newFolder(page, name);
  await expect(page.getByText('3 pending')).toBeVisible();

  // The first creation reaches the server, and the tab is closed before its answer arrives.
  let applied!: () => void;
  const reached = new Promise<void>((resolve) => (applied = resolve));
  await page.route('**/api/v1/elements/create/', async (route) => {
    await route.fetch();
    applied();
    // Never answered: the tab goes away first.
  });
  await context.setOffline(false);
  await reached;
  await page.close();

  const reopened = await context.newPage();
  await reopened.goto(boxUrl);
  await expect(reopened.getByRole('heading', { name: 'Box', exact: true })).toBeVisible();
  // The pending count shows only once the store is read: wait on the server itself.
  const names = async () => {
    const children = await reopened.evaluate(
      async (id) => (await fetch(`/api/v1/elements/${id}/children/`)).json(),
      boxId,
    );
    return (children.results as { name: string }[]).map((child) => child.name).sort();
  };
  await expect
    .poll(async () => (await names()).length, { timeout: 30_000 })
    .toBeGreaterThanOrEqual(3);
  await expect(reopened.getByText(/\d+ pending/)).toBeHidden({ timeout: 30_000 });
  expect(await names()).toEqual(['Deeds', 'Leases', 'Receipts']);
});
