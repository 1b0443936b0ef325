import { expect, type Page } from '@playwright/test';

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
