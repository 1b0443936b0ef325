import { expect, test, type Browser, type Page } from '@playwright/test';
import { AccountPages } from './support/pages';
import { startEnterpriseServer, type EnterpriseServer } from './support/enterpriseServer';
import { uniqueEmail } from './support/server';

test.use({ viewport: { width: 1280, height: 900 } });

const PASSWORD = 'correct horse battery';
const PROJECT = 'Parish registers 1712';
const GROUP = 'Transcription team';

let server: EnterpriseServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startEnterpriseServer();
});

test.afterAll(async () => {
  await server?.close();
});

/** A page of its own (cookies included) logged in as `email` on the enterprise server. */
async function loggedIn(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${server.origin}/user/login`);
  await new AccountPages(page).logIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/browse\/$/);
  return page;
}

test('a group given a project lets its members work in it, until they leave the group', async ({
  browser,
}, testInfo) => {
  const ownerEmail = uniqueEmail('group-owner');
  const memberEmail = uniqueEmail('group-member');
  server.createUser(ownerEmail, PASSWORD, { displayName: 'Olga Owner' });
  server.createUser(memberEmail, PASSWORD, { displayName: 'Max Member' });

  // The owner makes a project, then a group from their profile.
  const owner = await loggedIn(browser, ownerEmail);
  await owner.getByRole('link', { name: 'Create a project' }).click();
  await owner.getByLabel('Name').fill(PROJECT);
  await owner.getByRole('button', { name: 'Create' }).click();
  await expect(owner).toHaveURL(/\/browse\/[0-9a-f-]{36}\?/);
  const corpusId = new URL(owner.url()).pathname.split('/')[2]!;

  await owner.goto(`${server.origin}/user/profile`);
  const groups = owner.getByRole('region', { name: 'Groups' });
  await expect(groups.getByText('You are not a member of any group.')).toBeVisible();
  await groups.getByLabel('New group name').fill(GROUP);
  await groups.getByRole('button', { name: 'Create group' }).click();
  await expect(owner.getByRole('heading', { name: GROUP, level: 1 })).toBeVisible();
  await expect(owner).toHaveURL(/\/group\/[0-9a-f-]{36}$/);
  const groupUrl = owner.url();

  // The second user joins it as a member.
  const members = owner.getByRole('region', { name: 'Members' });
  await members.getByLabel('E-mail address').fill(memberEmail);
  await members.getByRole('button', { name: 'Add member' }).click();
  const memberRow = members.getByRole('row').filter({ hasText: 'Max Member' });
  await expect(memberRow).toBeVisible();
  await expect(memberRow.getByRole('combobox', { name: 'Role of Max Member' })).toHaveValue('10');
  await expect(owner.getByText('You are an admin of this group · 2 members')).toBeVisible();

  // The project's members screen gives the group the contributor role.
  await owner.goto(`${server.origin}/corpus/${corpusId}`);
  const addGroup = owner.getByRole('form', { name: 'Add a group' });
  await addGroup.getByRole('combobox', { name: 'Group' }).selectOption({ label: GROUP });
  await addGroup.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Contributor' });
  await addGroup.getByRole('button', { name: 'Add group' }).click();
  const projectMembers = owner.getByRole('region', { name: 'Members' });
  const groupRow = projectMembers.getByRole('row').filter({ hasText: GROUP });
  await expect(groupRow.getByRole('link', { name: GROUP })).toHaveAttribute(
    'href',
    new URL(groupUrl).pathname,
  );
  await expect(groupRow.getByRole('combobox', { name: `Role of ${GROUP}` })).toHaveValue('50');

  // The group page lists the project; a look at the whole screen.
  await owner.goto(groupUrl);
  await expect(
    owner.getByRole('region', { name: 'Projects' }).getByRole('link', { name: PROJECT }),
  ).toBeVisible();
  await expect(owner.getByRole('row').filter({ hasText: 'Max Member' })).toBeVisible();
  await owner.screenshot({ path: testInfo.outputPath('group-page.png'), fullPage: true });

  // The member sees the project, opens it and may write in it.
  const member = await loggedIn(browser, memberEmail);
  const projects = member.getByRole('list', { name: 'Projects' });
  await projects.getByRole('link', { name: PROJECT, exact: true }).click();
  await expect(member).toHaveURL(new RegExp(`/browse/${corpusId}`));
  await expect(member.getByRole('heading', { name: PROJECT })).toBeVisible();
  const rights = await member.evaluate(async (id) => {
    const response = await fetch(`/api/v1/corpus/${id}/`);
    return ((await response.json()) as { rights: string[] }).rights;
  }, corpusId);
  expect(rights).toEqual(['read', 'write']);

  // Removed from the group, they lose the project.
  await owner.getByRole('button', { name: 'Remove Max Member' }).click();
  await owner
    .getByRole('dialog', { name: 'Remove member' })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(owner.getByRole('row').filter({ hasText: 'Max Member' })).toHaveCount(0);

  // The server refuses the project at once, even to the session already open…
  const after = await member.evaluate(async (id) => {
    const [project, list] = await Promise.all([
      fetch(`/api/v1/corpus/${id}/`),
      fetch('/api/v1/corpus/').then((response) => response.json() as Promise<{ id: string }[]>),
    ]);
    return { status: project.status, listed: list.some((corpus) => corpus.id === id) };
  }, corpusId);
  expect(after).toEqual({ status: 404, listed: false });
  // …and once the member's next session reads the projects afresh, the project is gone.
  const account = new AccountPages(member);
  await account.logOut('Max Member');
  await member.goto(`${server.origin}/user/login`);
  await account.logIn(memberEmail, PASSWORD);
  await expect(member).toHaveURL(/\/browse\/$/);
  await expect(member.getByRole('heading', { name: 'Projects' })).toBeVisible();
  await expect(member.getByText('No projects to show.')).toBeVisible();
  await expect(member.getByRole('link', { name: PROJECT, exact: true })).toBeHidden();
  await member.goto(`${server.origin}/browse/${corpusId}`);
  await expect(member.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(member.getByRole('heading', { name: PROJECT })).toBeHidden();
  await member.screenshot({ path: testInfo.outputPath('project-gone.png'), fullPage: true });
});
