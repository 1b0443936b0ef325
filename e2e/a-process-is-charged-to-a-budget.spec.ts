import { expect, test, type Page } from '@playwright/test';
import { AccountPages } from './support/pages';
import { startEnterpriseServer, type EnterpriseServer } from './support/enterpriseServer';
import { ProcessDetails, startAgent, type RunningAgent } from './support/processes';
import { uniqueEmail } from './support/server';

test.use({ viewport: { width: 1280, height: 900 } });

const PASSWORD = 'correct horse battery';
const BUDGET = 'Digitisation pilot';

let server: EnterpriseServer;
let agent: RunningAgent | null = null;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startEnterpriseServer();
  // The enterprise server embeds no agent: one of its own runs its tasks.
  agent = await startAgent(server.origin, {
    hostname: 'budget-agent',
    slots: 1,
    farmToken: server.farmToken(),
  });
});

test.afterAll(async () => {
  await agent?.stop();
  await server?.close();
});

/** The API as the signed-in session calls it, on the enterprise server. */
function apiOf(page: Page) {
  const call = async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, data?: unknown) => {
    const cookies = await page.context().cookies();
    const csrf = cookies.find((cookie) => cookie.name === 'arkindex.csrf')?.value ?? '';
    const response = await page.request.fetch(`${server.origin}/api/v1${url}`, {
      method,
      headers: { 'x-csrftoken': csrf },
      ...(data === undefined ? {} : { data }),
    });
    expect(response.ok(), `${method} ${url}: ${await response.text()}`).toBe(true);
    return (await response.json()) as T;
  };
  return {
    get: <T>(url: string) => call<T>('GET', url),
    post: <T>(url: string, data: unknown) => call<T>('POST', url, data),
    patch: <T>(url: string, data: unknown) => call<T>('PATCH', url, data),
  };
}

interface Created {
  id: string;
}

/** A workers process over one folder of a new project, running the built-in No-op worker. */
async function makeProcess(page: Page, api: ReturnType<typeof apiOf>, name: string) {
  const corpus = await api.post<Created>('/corpus/', { name: `${name} project` });
  await api.post('/elements/create/', { corpus: corpus.id, type: 'folder', name: 'Volume 1' });
  const process = await api.post<Created>('/process/corpus/', { corpus: corpus.id, name });
  const workers = await api.get<{ results: { id: string; slug: string }[] }>(
    '/workers/?page_size=100',
  );
  const noop = workers.results.find((worker) => worker.slug === 'noop')!;
  const versions = await api.get<{ results: { id: string }[] }>(`/workers/${noop.id}/versions/`);
  await api.post(`/process/${process.id}/workers/`, {
    worker_version_id: versions.results[0]!.id,
    parents: [],
  });
  return process.id;
}

test('a process is charged to its budget, which refuses a start once spent', async ({ page }) => {
  test.setTimeout(150_000);
  const shots = test.info().outputPath();
  const email = uniqueEmail('budget-admin');
  server.createUser(email, PASSWORD, { admin: true, displayName: 'Treasurer' });
  await page.goto(`${server.origin}/user/login`);
  await new AccountPages(page).logIn(email, PASSWORD);
  await expect(page).toHaveURL(/\/browse\/$/);
  const api = apiOf(page);

  await test.step('a site admin adds a budget from the user menu', async () => {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('button', { name: 'Treasurer' })
      .click();
    await page.getByRole('menuitem', { name: 'Budgets' }).click();
    await expect(page).toHaveURL(`${server.origin}/budget/`);
    await expect(page.getByText('There are no budgets yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Add a budget' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a budget' });
    await dialog.getByLabel('Name').fill(BUDGET);
    // A hundredth: the first task spends it all.
    await dialog.getByLabel('Amount').fill('0.01');
    await dialog.getByLabel('Currency').fill('EUR');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('link', { name: BUDGET })).toBeVisible();
  });

  // The farm's rate, as a site admin sets it through the API: 3600 EUR an hour, 1 EUR a second.
  const farms = await api.get<{ results: { id: string; name: string }[] }>('/farms/');
  const farm = farms.results.find((item) => item.name === 'Default farm')!;
  await api.patch(`/farm/${farm.id}/`, { rate: '3600' });

  const processId = await makeProcess(page, api, 'Charged OCR');
  await test.step('its admin attaches the process to the budget', async () => {
    await page.goto(`${server.origin}/process/${processId}`);
    await page.getByRole('link', { name: 'Budget', exact: true }).click();
    await expect(page).toHaveURL(`${server.origin}/process/${processId}/budget`);
    await expect(page.getByText('This process has no budget.')).toBeVisible();
    await page
      .getByRole('combobox', { name: 'Budget' })
      .selectOption({ label: `${BUDGET} (0.01 EUR remaining)` });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The budget of this process was saved.')).toBeVisible();
    await expect(page.getByRole('link', { name: BUDGET })).toBeVisible();
    await page.screenshot({ path: `${shots}/process-budget.png`, fullPage: true });
  });

  await test.step('the process runs on the agent and its task is charged', async () => {
    await page.goto(`${server.origin}/process/${processId}/configure`);
    await page.getByRole('button', { name: 'Start process' }).click();
    await expect(page).toHaveURL(`${server.origin}/process/${processId}`);
    await new ProcessDetails(page).expectState('Completed', 90_000);

    await page.goto(`${server.origin}/budget/`);
    await page.getByRole('link', { name: BUDGET }).click();
    await expect(page.getByRole('heading', { name: BUDGET })).toBeVisible();
    const perProcess = page.getByRole('table', { name: 'Spent per process' });
    await expect(perProcess.getByRole('link', { name: 'Charged OCR' })).toBeVisible();
    await expect(perProcess.locator('tbody tr td').nth(1)).toHaveText('1');
    const entries = page.getByRole('table', { name: 'Entries' });
    await expect(entries.locator('tbody tr')).toHaveCount(1);
    await expect(entries.locator('tbody tr')).toContainText(
      /Task noop: \d+\.\d s at 3600\.00 an hour on Default farm/,
    );
    await expect(
      page.getByRole('progressbar', {
        name: new RegExp(`^${BUDGET}: .* EUR spent of 0\\.01 EUR$`),
      }),
    ).toHaveAttribute('aria-valuenow', '100');
    await page.screenshot({ path: `${shots}/budget-details.png`, fullPage: true });
    await page.goto(`${server.origin}/budget/`);
    await expect(page.getByRole('link', { name: BUDGET })).toBeVisible();
    await page.screenshot({ path: `${shots}/budgets-list.png`, fullPage: true });
  });

  await test.step('with the budget spent, another process of it is refused its start', async () => {
    const budget = await api.get<{ results: { id: string; spent: string }[] }>('/budgets/');
    const { id: budgetId, spent } = budget.results[0]!;
    const secondId = await makeProcess(page, api, 'Refused OCR');
    await page.goto(`${server.origin}/process/${secondId}/budget`);
    await page.getByRole('combobox', { name: 'Budget' }).selectOption({ value: budgetId });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The budget of this process was saved.')).toBeVisible();

    await page.goto(`${server.origin}/process/${secondId}/configure`);
    await page.getByRole('button', { name: 'Start process' }).click();
    await expect(
      page.getByText(`The budget “${BUDGET}” is spent: ${spent} EUR of 0.01 EUR.`),
    ).toBeVisible();
    await expect(page).toHaveURL(`${server.origin}/process/${secondId}/configure`);
    const second = await api.get<{ started: string | null; tasks: unknown[] }>(
      `/process/${secondId}/`,
    );
    expect(second).toMatchObject({ started: null, tasks: [] });
    await page.screenshot({ path: `${shots}/start-refused.png`, fullPage: true });
  });
});
