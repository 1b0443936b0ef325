import { expect, test } from '@playwright/test';

test('a reload while offline shows the app shell with the offline notice, not a browser error', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  // The service worker precaches the shell; wait until it controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('You are offline')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }),
  ).toBeVisible();
  await page.screenshot({ path: 'test-results/offline-shell.png', fullPage: true });

  await context.setOffline(false);
  await page.reload();
  await expect(page.getByText('You are offline')).toBeHidden({ timeout: 30_000 });
});

test('the web app manifest makes Folia installable', async ({ request }) => {
  const response = await request.get('/manifest.webmanifest');
  expect(response.ok()).toBe(true);
  const manifest = await response.json();
  expect(manifest).toMatchObject({ name: 'Folia', display: 'standalone' });
  const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const icon of manifest.icons as { src: string }[]) {
    expect((await request.get(icon.src)).ok()).toBe(true);
  }
});
