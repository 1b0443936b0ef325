import {
  expect,
  request,
  test,
  type APIRequestContext,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { signInWithNewProject } from './support/pages';
import { createUser, uniqueEmail } from './support/server';

interface ServerVersion {
  name: string;
  lastModified: string;
}

/**
 * Another contributor of the project, working from another machine with their API token: this
 * browser going offline does not cut them off.
 */
class Colleague {
  private constructor(private readonly api: APIRequestContext) {}

  static async join(owner: Page, corpusId: string, baseURL: string): Promise<Colleague> {
    const email = uniqueEmail('colleague');
    const password = 'the other desk 1790';
    createUser(email, password);
    const csrf = (await owner.context().cookies()).find((c) => c.name === 'arkindex.csrf');
    const added = await owner.request.post('/api/v1/memberships/', {
      data: { corpus_id: corpusId, user_email: email, level: 50 },
      headers: { 'X-CSRFToken': csrf?.value ?? '' },
    });
    expect(added.status()).toBe(201);
    const anonymous = await request.newContext({ baseURL });
    const login = await anonymous.post('/api/v1/user/login/', { data: { email, password } });
    expect(login.ok()).toBe(true);
    const { auth_token: token } = (await login.json()) as { auth_token: string };
    await anonymous.dispose();
    return new Colleague(
      await request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Token ${token}` } }),
    );
  }

  async read(id: string): Promise<ServerVersion> {
    const response = await this.api.get(`/api/v1/element/${id}/`);
    expect(response.status()).toBe(200);
    const { name } = (await response.json()) as { name: string };
    return { name, lastModified: response.headers()['last-modified']! };
  }

  async status(id: string): Promise<number> {
    return (await this.api.get(`/api/v1/element/${id}/`)).status();
  }

  /**
   * Renames the element; the server dates the change in a later second than `version`, even
   * within the second it was read (HTTP dates count whole seconds), so the page's edit based on
   * `version` conflicts with it.
   */
  async renameAfter(id: string, name: string, version: string): Promise<void> {
    const response = await this.api.patch(`/api/v1/element/${id}/`, { data: { name } });
    expect(response.status()).toBe(200);
    expect(Date.parse(response.headers()['last-modified']!)).toBeGreaterThan(Date.parse(version));
  }

  /** Turns the element a quarter: a change of another field than a rename. */
  async rotate(id: string): Promise<void> {
    const response = await this.api.patch(`/api/v1/element/${id}/`, {
      data: { rotation_angle: 90 },
    });
    expect(response.status()).toBe(200);
  }

  async element(id: string): Promise<{ name: string; rotation_angle: number }> {
    const response = await this.api.get(`/api/v1/element/${id}/`);
    expect(response.status()).toBe(200);
    return (await response.json()) as { name: string; rotation_angle: number };
  }

  async leave(): Promise<void> {
    await this.api.dispose();
  }
}

interface Setting {
  folderId: string;
  colleague: Colleague;
  /** The version of the folder the page was given, which the offline edit is based on. */
  seen: ServerVersion;
  /** Edits to the folder this page sent, by method: a refused one counts too. */
  sent: (method: 'PATCH' | 'DELETE') => number;
}

/**
 * A user's new project with a folder "Box 1" they have opened online (its page is kept for
 * offline use), and a colleague on the same project.
 */
async function folderSeenOnline(page: Page, baseURL: string, project: string): Promise<Setting> {
  const { corpusId } = await signInWithNewProject(page, project, 'archivist');
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

  const colleague = await Colleague.join(page, corpusId, baseURL);
  const seen = await colleague.read(folderId);
  const requests: string[] = [];
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === `/api/v1/element/${folderId}/`) {
      requests.push(sent.method());
    }
  });
  const sent = (method: string) => requests.filter((m) => m === method).length;
  return { folderId, colleague, seen, sent };
}

async function goOffline(page: Page, context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await expect(page.getByText('You are offline')).toBeVisible();
}

async function renameOffline(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Elements' }).click();
  await page.getByRole('menuitem', { name: 'Edit element' }).click();
  const edit = page.getByRole('dialog');
  await edit.getByLabel('Name').fill(name);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name, exact: true })).toBeVisible();
}

/** The navbar's sync status: its name says whether the app is online and how many edits wait. */
function syncStatus(page: Page) {
  return page.getByRole('navigation', { name: 'Main' }).getByRole('button', {
    name: /^Pending changes:/,
  });
}

/**
 * Back online, the edit goes to the server, which refuses it; the navbar opens the Pending
 * changes panel on it.
 */
async function backOnlineToTheConflict(page: Page, context: BrowserContext, label: string) {
  await context.setOffline(false);
  await expect(page.getByText('You are offline')).toBeHidden({ timeout: 30_000 });
  await expect(syncStatus(page)).toHaveAccessibleName('Pending changes: Online, 1 pending');
  await syncStatus(page).click();
  const panel = page.getByRole('dialog', { name: 'Pending changes' });
  const change = panel.getByRole('listitem', { name: label, exact: true });
  await expect(change.getByText('Changed on the server', { exact: true })).toBeVisible();
  await expect(
    panel.getByText('1 change is not on the server yet. 1 needs your attention.'),
  ).toBeVisible();
  return {
    panel,
    change,
    choice: change.getByRole('region', { name: "Your version and the server's" }),
  };
}

const MINE = 'Box 1, sorted by date';
const THEIRS = 'Box 1 (registers)';

/**
 * The folder renamed here offline while the colleague renames it on the server; back online,
 * the Pending changes panel shows the conflict with the three names.
 */
async function renameConflict(page: Page, context: BrowserContext, baseURL: string) {
  const setting = await folderSeenOnline(page, baseURL, 'Parish registers');
  await goOffline(page, context);
  await renameOffline(page, MINE);
  await expect(syncStatus(page)).toHaveAccessibleName('Pending changes: Offline, 1 pending');
  await setting.colleague.renameAfter(setting.folderId, THEIRS, setting.seen.lastModified);
  const shown = await backOnlineToTheConflict(
    page,
    context,
    `“Box 1” (Folder): renamed to “${MINE}”`,
  );
  await expect(
    shown.choice.getByText('Someone changed this element on the server after your edit was made.'),
  ).toBeVisible();
  await expect(shown.choice.getByRole('row', { name: /^Name/ }).getByRole('cell')).toHaveText([
    'Box 1',
    MINE,
    `${THEIRS} (changed)`,
  ]);
  return { ...setting, ...shown };
}

test.describe('an element changed on the server while it was edited offline', () => {
  test.setTimeout(120_000);

  test('a rename that conflicts waits for the user; with “Keep mine” it goes over the other one', async ({
    page,
    context,
    baseURL,
  }) => {
    const { folderId, colleague, sent, panel, choice } = await renameConflict(
      page,
      context,
      baseURL!,
    );
    // Refused, not applied over the colleague's rename.
    expect((await colleague.read(folderId)).name).toBe(THEIRS);
    expect(sent('PATCH')).toBe(1);

    await choice.getByRole('button', { name: 'Keep mine' }).click();
    await expect(panel.getByText('Everything is saved on the server.')).toBeVisible();
    expect((await colleague.read(folderId)).name).toBe(MINE);
    expect(sent('PATCH')).toBe(2);
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(syncStatus(page)).toHaveAccessibleName('Pending changes: Online');
    await expect(page.getByRole('heading', { name: MINE, exact: true })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: MINE, exact: true })).toBeVisible();
    await colleague.leave();
  });

  test('a rename that conflicts is dropped with “Keep theirs”: nothing more is sent', async ({
    page,
    context,
    baseURL,
  }) => {
    const { folderId, colleague, sent, panel, choice } = await renameConflict(
      page,
      context,
      baseURL!,
    );
    const theirs = await colleague.read(folderId);
    // Until the user chooses, the page behind the panel keeps their rename.
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('heading', { name: MINE, exact: true })).toBeVisible();
    await syncStatus(page).click();

    await choice.getByRole('button', { name: 'Keep theirs' }).click();
    await expect(panel.getByText('Everything is saved on the server.')).toBeVisible();
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(syncStatus(page)).toHaveAccessibleName('Pending changes: Online');
    await expect(page.getByRole('heading', { name: THEIRS, exact: true })).toBeVisible();
    // The server kept the colleague's version, untouched since.
    expect(await colleague.read(folderId)).toEqual(theirs);
    expect(sent('PATCH')).toBe(1);
    await page.reload();
    await expect(page.getByRole('heading', { name: THEIRS, exact: true })).toBeVisible();
    await colleague.leave();
  });

  test('a deletion made offline of an element renamed meanwhile is undone with “Keep the element”', async ({
    page,
    context,
    baseURL,
  }) => {
    const { folderId, colleague, seen, sent } = await folderSeenOnline(
      page,
      baseURL!,
      'Parish registers',
    );
    await goOffline(page, context);
    await page.getByRole('button', { name: 'Elements' }).click();
    await page.getByRole('menuitem', { name: 'Delete element' }).click();
    await page
      .getByRole('dialog', { name: 'Delete element' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expect(page.getByRole('link', { name: 'Box 1', exact: true })).toBeHidden();
    await expect(syncStatus(page)).toHaveAccessibleName('Pending changes: Offline, 1 pending');
    await colleague.renameAfter(folderId, THEIRS, seen.lastModified);

    const { panel, choice } = await backOnlineToTheConflict(
      page,
      context,
      '“Box 1” (Folder): deleted',
    );
    await expect(
      choice.getByText('You deleted this element, and someone changed it on the server since.'),
    ).toBeVisible();
    await expect(choice.getByRole('row', { name: /^Name/ }).getByRole('cell')).toHaveText([
      'Box 1',
      'Deleted',
      'Box 1 (registers) (changed)',
    ]);
    expect((await colleague.read(folderId)).name).toBe(THEIRS);
    expect(sent('DELETE')).toBe(1);

    await expect(choice.getByRole('button', { name: 'Delete anyway' })).toBeVisible();
    await choice.getByRole('button', { name: 'Keep the element' }).click();
    await expect(panel.getByText('Everything is saved on the server.')).toBeVisible();
    await panel.getByRole('button', { name: 'Close' }).click();
    await expect(syncStatus(page)).toHaveAccessibleName('Pending changes: Online');
    await expect(page.getByRole('link', { name: THEIRS, exact: true })).toBeVisible();
    expect((await colleague.read(folderId)).name).toBe(THEIRS);
    expect(sent('DELETE')).toBe(1);
    await page.reload();
    await expect(page.getByRole('link', { name: THEIRS, exact: true })).toBeVisible();
    await colleague.leave();
  });

  test('a rename made offline while the colleague turned the element keeps both, asking nothing', async ({
    page,
    context,
    baseURL,
  }) => {
    const { folderId, colleague, sent } = await folderSeenOnline(
      page,
      baseURL!,
      'Parish registers',
    );
    await goOffline(page, context);
    await renameOffline(page, MINE);
    await colleague.rotate(folderId);
    await context.setOffline(false);
    await expect(page.getByText('You are offline')).toBeHidden({ timeout: 30_000 });
    // Refused once for the version, then sent again over it: the name was not touched there.
    await expect(syncStatus(page)).toHaveAccessibleName('Pending changes: Online');
    expect(await colleague.element(folderId)).toMatchObject({ name: MINE, rotation_angle: 90 });
    expect(sent('PATCH')).toBe(2);
    await colleague.leave();
  });
});
