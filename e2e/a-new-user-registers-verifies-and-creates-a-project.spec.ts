import { expect, test } from '@playwright/test';
import { AccountPages } from './support/pages';
import { lastMailTo, linkIn, uniqueEmail } from './support/server';

test('a new user registers, verifies the e-mail from the mailed link, logs in, creates a project and logs out', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('newcomer');
  const password = 'reading room 1789';
  const account = new AccountPages(page);

  await account.register('Ada Newcomer', email, password);
  // Registered and logged in, but not verified yet: the sticky banner says so.
  await expect(page).toHaveURL(/\/browse\/$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('button', { name: 'Ada Newcomer' })).toBeVisible();
  await expect(page.getByText(/verification email/i).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Create a project' })).toBeHidden();

  const mail = await lastMailTo(email);
  await page.goto(linkIn(mail, '/user/verify-email/', baseURL!));
  await expect(page.getByText('Your email address has been verified.')).toBeVisible();

  await page.goto('/browse/');
  await account.logOut('Ada Newcomer');

  await page.goto('/user/login');
  await account.logIn(email, password);
  await expect(page).toHaveURL(/\/browse\/$/);
  await expect(page.getByRole('heading', { name: 'Projects' })).toBeVisible();

  await page.getByRole('link', { name: 'Create a project' }).click();
  await expect(page).toHaveURL(/\/corpus\/new$/);
  await page.getByLabel('Name').fill('Notary registers 1789');
  await page.getByLabel('Description').fill('Minutes of the *Bronod* study.');
  await page.getByRole('button', { name: 'Create' }).click();
  // An empty navigation query redirects to the top level (spec 000 §2): no top-level type, so folder=true.
  await expect(page).toHaveURL(/\/browse\/[0-9a-f-]{36}\?top_level=true&folder=true$/);

  await nav.getByRole('link', { name: 'Projects' }).click();
  const projects = page.getByRole('list', { name: 'Projects' });
  await expect(
    projects.getByRole('link', { name: 'Notary registers 1789', exact: true }),
  ).toBeVisible();
  await expect(projects.getByRole('link', { name: 'Edit Notary registers 1789' })).toBeVisible();
  await page.screenshot({ path: 'test-results/projects.png', fullPage: true });

  await account.logOut('Ada Newcomer');
  await page.goto('/browse/');
  await expect(page.getByRole('link', { name: 'Notary registers 1789', exact: true })).toBeHidden();
});

test('a password reset link from the mail sets a new password that logs in', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('forgetful');
  const account = new AccountPages(page);
  await account.register('Forgetful Fred', email, 'first passphrase 1');
  await expect(page).toHaveURL(/\/browse\/$/);
  await account.logOut('Forgetful Fred');

  await page.goto('/user/login');
  await page.getByRole('link', { name: 'Forgot your password' }).click();
  // Just after a logout the page can still be settling and lose what was typed (the form then
  // says the field is required): type and send again until the link is sent.
  await expect(async () => {
    await page.getByLabel('E-mail').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('status')).toContainText('reset your password', {
      timeout: 5_000,
    });
  }).toPass({ timeout: 30_000 });

  const mail = await lastMailTo(email);
  expect(mail).toContain('Reset your password on Folia');
  await page.goto(linkIn(mail, '/user/reset/', baseURL!));
  await page.getByLabel('New password', { exact: true }).fill('second passphrase 2');
  await page.getByLabel('New password confirmation').fill('second passphrase 2');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Your password has been reset. You can now log in with your new password.',
  );

  await page.goto('/user/login');
  await account.logIn(email, 'second passphrase 2');
  await expect(page).toHaveURL(/\/browse\/$/);
});
