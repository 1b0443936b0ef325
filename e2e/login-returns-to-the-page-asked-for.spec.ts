import { expect, test } from '@playwright/test';
import { AccountPages } from './support/pages';
import { createUser, uniqueEmail } from './support/server';

test('an anonymous visit to a login-only page lands on login with next, and returns there after login', async ({
  page,
}) => {
  const email = uniqueEmail('returning');
  createUser(email, 'a sturdy passphrase', { displayName: 'Returning Reader' });

  await page.goto('/process/workers/');
  await expect(page).toHaveURL(/\/user\/login\?next=%2Fprocess%2Fworkers%2F/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();

  await new AccountPages(page).logIn(email, 'a sturdy passphrase');
  await expect(page).toHaveURL(/\/process\/workers\/$/);
  await expect(page.getByRole('heading', { name: 'Workers', level: 1 })).toBeVisible();
});

test('a wrong password is refused above the form and nothing else happens', async ({ page }) => {
  const email = uniqueEmail('wrong');
  createUser(email, 'the right passphrase');
  await page.goto('/user/login');
  const form = page.getByRole('form', { name: 'Log in' });
  await expect(form.getByRole('button', { name: 'Log in' })).toBeDisabled();
  await new AccountPages(page).logIn(email, 'not the passphrase');
  await expect(form.getByRole('alert')).toHaveText('Unable to log in with provided credentials.');
  await expect(page).toHaveURL(/\/user\/login/);
});

test('the keyboard help opens on ? and closes on Escape', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog.getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible();
  await expect(dialog).toContainText('Go to the previous element');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('an unknown path shows Page not found with a way home', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Homepage' }).click();
  await expect(page).toHaveURL(/\/$/);
});
