import { expect, test } from '@playwright/test';
import { AccountPages } from './support/pages';
import { createUser, uniqueEmail } from './support/server';

const PASSWORD = 'reading room 1789';

test('a site admin deactivates a user from the Admin page: the user is logged out and cannot log in again', async ({
  browser,
  page,
}) => {
  // Two accounts made through the CLI and two browsers: more than the default minute under load.
  test.setTimeout(240_000);
  const adminEmail = uniqueEmail('site-admin');
  const userEmail = uniqueEmail('leaving');
  createUser(adminEmail, PASSWORD, { admin: true, displayName: 'Site Keeper' });
  createUser(userEmail, PASSWORD, { displayName: 'Leaving Reader' });

  // The user is logged in in a browser of their own.
  const userContext = await browser.newContext();
  const userPage = await userContext.newPage();
  await userPage.goto('/user/login');
  await new AccountPages(userPage).logIn(userEmail, PASSWORD);
  const userNav = userPage.getByRole('navigation', { name: 'Main' });
  await expect(userNav.getByRole('button', { name: 'Leaving Reader' })).toBeVisible();

  // The admin opens Admin from the user menu, finds the user and deactivates them.
  await page.goto('/user/login');
  await new AccountPages(page).logIn(adminEmail, PASSWORD);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('button', { name: 'Site Keeper' })
    .click();
  await page.getByRole('menuitem', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin\/$/);
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search by e-mail or name' }).fill(userEmail);
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('row').filter({ hasText: userEmail });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Deactivate: Leaving Reader' }).click();
  const dialog = page.getByRole('dialog', { name: 'Deactivate user' });
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(row.getByText('Deactivated')).toBeVisible();
  await expect(page.getByText('Leaving Reader has been deactivated.')).toBeVisible();

  // Their session no longer works: the next page load finds them logged out.
  await userPage.reload();
  await expect(userNav.getByRole('link', { name: 'Log in' })).toBeVisible();
  await expect(userNav.getByRole('button', { name: 'Leaving Reader' })).toHaveCount(0);

  // And logging in again is refused.
  await userPage.goto('/user/login');
  await new AccountPages(userPage).logIn(userEmail, PASSWORD);
  const form = userPage.getByRole('form', { name: 'Log in' });
  await expect(form.getByRole('alert')).toHaveText('Unable to log in with provided credentials.');
  await expect(userPage).toHaveURL(/\/user\/login/);
  await userContext.close();
});

test('the Admin page is Page not found for a user who is not a site admin', async ({ page }) => {
  const email = uniqueEmail('not-admin');
  createUser(email, PASSWORD, { displayName: 'Plain Reader' });
  await page.goto('/user/login');
  await new AccountPages(page).logIn(email, PASSWORD);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Plain Reader' }),
  ).toBeVisible();
  await page.goto('/admin/');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Users' })).toHaveCount(0);
});
