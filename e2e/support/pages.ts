import { expect, type Page } from '@playwright/test';
import { createUser, uniqueEmail } from './server';

/** Page objects: the app as a user sees it, through roles and visible text only. */
export class AccountPages {
  constructor(private readonly page: Page) {}

  async register(displayName: string, email: string, password: string): Promise<void> {
    await this.page.goto('/user/register');
    const form = this.page.getByRole('form', { name: 'Register' });
    await form.getByLabel('Display name').fill(displayName);
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password', { exact: true }).fill(password);
    await form.getByLabel('Password confirmation').fill(password);
    await form.getByRole('button', { name: 'Register' }).click();
  }

  async logIn(email: string, password: string): Promise<void> {
    const form = this.page.getByRole('form', { name: 'Log in' });
    await form.getByLabel('E-mail').fill(email);
    await form.getByLabel('Password').fill(password);
    await form.getByRole('button', { name: 'Log in' }).click();
  }

  /** The user menu is the navbar button bearing the user's display name. */
  async logOut(displayName: string): Promise<void> {
    await this.page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: displayName })
      .click();
    await this.page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(this.page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();
  }
}

export interface SignedIn {
  email: string;
  password: string;
  /** The new project's id, read from the page it opens on. */
  corpusId: string;
}

/**
 * A verified user of their own, logged in, who has just created a project and sees its top
 * level: the start of most specs, each on accounts and projects no other test touches.
 */
export async function signInWithNewProject(
  page: Page,
  projectName: string,
  emailPrefix = 'user',
): Promise<SignedIn> {
  const email = uniqueEmail(emailPrefix);
  const password = 'reading room 1789';
  createUser(email, password);
  await page.goto('/user/login');
  await new AccountPages(page).logIn(email, password);
  await page.getByRole('link', { name: 'Create a project' }).click();
  // Under a loaded machine the page can still be settling (session refresh) when the name is
  // typed: type it again until the form holds it.
  await expect(async () => {
    await page.getByLabel('Name').fill(projectName);
    await expect(page.getByRole('button', { name: 'Create' })).toBeEnabled({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page).toHaveURL(/\/browse\/[0-9a-f-]{36}\?/);
  return { email, password, corpusId: new URL(page.url()).pathname.split('/')[2]! };
}
