import { expect, test, type Page } from '@playwright/test';
import { AccountPages, signInWithNewProject } from './support/pages';

/** Every console error and every request that failed or was refused, from now on. */
function recordFailures(page: Page): string[] {
  const failures: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') failures.push(`console: ${message.text()}`);
  });
  page.on('requestfailed', (request) => failures.push(`failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()}: ${response.url()}`);
  });
  return failures;
}

const navbar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('an anonymous visit, first or after a logout, logs no error and no failed request', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const failures = recordFailures(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Welcome to Folia' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Not logged in' })).toBeVisible();
  await page.goto('/browse/');
  await expect(navbar(page).getByRole('link', { name: 'Log in' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: 'Not logged in' })).toBeVisible();
  expect(failures).toEqual([]);

  // A logged-in visit, then a logout: the next anonymous loads ask nothing bound to fail either.
  const { corpusId } = await signInWithNewProject(page, 'Anonymous after logout', 'leaving');
  await expect(page.getByRole('region', { name: 'Not logged in' })).toHaveCount(0);
  await new AccountPages(page).logOut('leaving');
  await page.goto('/browse/');
  await page.reload();
  await expect(page.getByRole('region', { name: 'Not logged in' })).toBeVisible();
  // The project is private: what an anonymous visitor is refused is the project, not GET /user/.
  expect(failures.filter((failure) => failure.includes('/user/'))).toEqual([]);
  expect(corpusId).toMatch(/^[0-9a-f-]{36}$/);
});

test('a logged-in user stays logged in on a folder page while GET /user/ fails, online and offline', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  await signInWithNewProject(page, 'Flaky network project', 'annotator');
  const folderPage = page.url();
  const loggedIn = async () => {
    await expect(navbar(page).getByRole('button', { name: /^annotator-/ })).toBeVisible();
    await expect(navbar(page).getByRole('link', { name: 'Log in' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Not logged in' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New folder' })).not.toHaveAttribute(
      'aria-disabled',
      'true',
    );
  };
  await loggedIn();

  // Five minutes on, the user persisted at login is stale: each reload asks for it again, and
  // the answers are lost, then a server error.
  await page.clock.setSystemTime(Date.now() + 5 * 60_000);
  await page.route('**/api/v1/user/', (route) => route.abort('connectionreset'));
  await page.reload();
  await loggedIn();
  await page.unroute('**/api/v1/user/');
  await page.route('**/api/v1/user/', (route) =>
    route.fulfill({
      status: 502,
      contentType: 'application/json',
      body: JSON.stringify({
        type: 'server_error',
        errors: [{ code: 'error', detail: 'Bad gateway.', attr: null }],
      }),
    }),
  );
  await page.reload();
  await loggedIn();
  await page.unroute('**/api/v1/user/');

  // Offline, the service worker serves the app and the persisted user shows.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await context.setOffline(true);
  await page.goto(folderPage);
  await expect(page.getByText('You are offline')).toBeVisible();
  await expect(navbar(page).getByRole('button', { name: /^annotator-/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Not logged in' })).toHaveCount(0);
  await context.setOffline(false);
});
