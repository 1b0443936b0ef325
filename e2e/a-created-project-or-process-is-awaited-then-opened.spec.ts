import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { AccountPages } from './support/pages';
import { startEnterpriseServer, type EnterpriseServer } from './support/enterpriseServer';
import { uniqueEmail } from './support/server';

const PASSWORD = 'correct horse battery';
const WAITING_PROJECT = 'Your project is being created, please wait…';
const WAITING_PROCESS = 'Your process is being created, please wait…';
const FAILED =
  'An error occurred while creating your resource, or it is taking too long to be created. Please contact your instance administrator.';

let server: EnterpriseServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startEnterpriseServer();
});

test.afterAll(async () => {
  await server?.close();
});

/** Calls the enterprise server's API with the page's session, as the app does. */
async function call<T>(page: Page, method: 'GET' | 'POST', url: string, data?: unknown) {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'arkindex.csrf')?.value;
  const response = await page.request.fetch(`${server.origin}/api/v1${url}`, {
    method,
    data,
    headers: { 'x-csrftoken': csrf ?? '' },
  });
  expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.goto(`${server.origin}/user/login`);
  await new AccountPages(page).logIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/browse\/$/);
}

test('a project is awaited until the user can read it, then its navigation opens', async ({
  page,
  browser,
}) => {
  const owner = uniqueEmail('wait-owner');
  const member = uniqueEmail('wait-member');
  server.createUser(owner, PASSWORD);
  server.createUser(member, PASSWORD);

  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  await logIn(ownerPage, owner);
  const corpus = await call<{ id: string }>(ownerPage, 'POST', '/corpus/', {
    name: `Registres ${owner}`,
  });

  // The member cannot read it yet: for them it does not exist, so the page waits.
  await logIn(page, member);
  await page.goto(`${server.origin}/corpus/${corpus.id}/wait`);
  await expect(page.getByRole('status')).toHaveText(WAITING_PROJECT);
  await page.waitForTimeout(2500);
  await expect(page).toHaveURL(`${server.origin}/corpus/${corpus.id}/wait`);

  await call(ownerPage, 'POST', '/memberships/', {
    corpus_id: corpus.id,
    user_email: member,
    level: 10,
  });
  // The project page may add its default filters to the address.
  await expect(page).toHaveURL(new RegExp(`/browse/${corpus.id}(\\?.*)?$`), { timeout: 15_000 });
  await expect(page.getByRole('heading', { name: `Registres ${owner}` })).toBeVisible();
  // The wait page was replaced, not stacked: going back does not wait again.
  await page.goBack();
  await expect(page).not.toHaveURL(/\/wait$/);
  await ownerContext.close();
});

test('a process opens where it is configured: filters for workers, sets for a dataset, details once it has tasks', async ({
  page,
}) => {
  const email = uniqueEmail('wait-processes');
  server.createUser(email, PASSWORD);
  await logIn(page, email);
  const corpus = await call<{ id: string }>(page, 'POST', '/corpus/', {
    name: `Processes ${email}`,
  });
  const types = await call<{ types: { slug: string; folder: boolean }[] }>(
    page,
    'GET',
    `/corpus/${corpus.id}/`,
  );
  const folderType = types.types.find((type) => type.folder)!.slug;
  const folder = await call<{ id: string }>(page, 'POST', '/elements/create/', {
    corpus: corpus.id,
    type: folderType,
    name: 'Liasse 1',
  });

  const workers = await call<{ id: string }>(page, 'POST', '/process/corpus/', {
    corpus: corpus.id,
    mode: 'workers',
  });
  await page.goto(`${server.origin}/process/${workers.id}/wait`);
  await expect(page).toHaveURL(`${server.origin}/process/${workers.id}/filter`);

  const dataset = await call<{ id: string }>(page, 'POST', '/process/corpus/', {
    corpus: corpus.id,
    mode: 'dataset',
  });
  await page.goto(`${server.origin}/process/${dataset.id}/wait`);
  await expect(page).toHaveURL(`${server.origin}/process/${dataset.id}/datasets`);

  // An export is started at once: it has its task, so its details show.
  const exported = await call<{ id: string }>(page, 'POST', `/process/export/${corpus.id}/`, {
    format: 'csv',
    export_id: null,
    element_id: folder.id,
  });
  await page.goto(`${server.origin}/process/${exported.id}/wait`);
  await expect(page).toHaveURL(`${server.origin}/process/${exported.id}`);
  await expect(page.getByRole('status')).toHaveCount(0);
});

test('a process that never comes is given up after the last try, with the spec’s message', async ({
  page,
}) => {
  const email = uniqueEmail('wait-never');
  server.createUser(email, PASSWORD);
  await logIn(page, email);
  // Thirty tries two seconds apart: the clock is run forward rather than waited for.
  await page.clock.install();
  await page.goto(`${server.origin}/process/${randomUUID()}/wait`);
  await expect(page.getByRole('status')).toHaveText(WAITING_PROCESS);
  for (let i = 0; i < 30 && (await page.getByRole('alert').count()) === 0; i += 1) {
    await page.clock.runFor(2000);
    await page.waitForTimeout(50);
  }
  await expect(page.getByRole('alert')).toHaveText(FAILED);
  await expect(page.getByRole('status')).toHaveCount(0);
});
