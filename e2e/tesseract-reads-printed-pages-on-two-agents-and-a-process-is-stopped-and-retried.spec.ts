import os from 'node:os';
import { expect, test, type Page } from '@playwright/test';
import { SHARED_DATA_DIR, sharedDataAvailable } from '../tests/server/sharedData';
import { logIn, PASSWORD, ServerApi } from './support/annotation';
import {
  printedPagesFolder,
  removePrintedPages,
  ProcessDetails,
  startAgent,
  tesseractMissing,
  BEBEL_PAGE,
  LAUBE_PAGE,
  type ApiProcess,
  type ApiTask,
  type RunningAgent,
} from './support/processes';
import { createUser, importWithCli, uniqueEmail } from './support/server';

test.use({ viewport: { width: 1280, height: 900 } });

const FOLDER = 'Scans 1837–1879';
const SECOND_AGENT = 'e2e-second-agent';
/** The agent `npm start` embeds runs on this machine, under its name. */
const EMBEDDED_AGENT = os.hostname();
const RUN_SUMMARY = /^Worker Tesseract OCR @ /;

const skipped = !sharedDataAvailable()
  ? `the shared test corpus is not at ${SHARED_DATA_DIR}`
  : tesseractMissing();
test.skip(skipped !== null, skipped ?? '');

interface Listed<T> {
  results: T[];
}
interface ApiTranscription {
  text: string;
  worker_run: { id: string; summary: string } | null;
  element: { id: string; name: string };
}

let agent: RunningAgent | null = null;

test.beforeAll(async ({ baseURL }) => {
  // A second machine joins the farm with one slot, like the embedded agent: while one task
  // runs for seconds on each, two tasks pending at once go one to each.
  agent = await startAgent(baseURL!, { hostname: SECOND_AGENT, slots: 1 });
});

test.afterAll(async () => {
  await agent?.stop();
});

/** From the folder's page: Processes → Create a process, pages only, Tesseract OCR, started. */
async function startTesseractOnFolder(
  page: Page,
  corpusName: string,
  options: { chunks: number; elements: number },
) {
  await page.goto('/browse/');
  await page.getByRole('link', { name: corpusName, exact: true }).click();
  await page.getByRole('link', { name: FOLDER, exact: true }).click();
  await expect(page.getByRole('heading', { name: FOLDER, exact: true })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Element navigation' })
    .getByRole('button', { name: 'Processes', exact: true })
    .click();
  await page.getByRole('menuitem', { name: 'Create a process' }).click();
  await expect(page).toHaveURL(/\/process\/[0-9a-f-]{36}\/filter$/);
  // Everything in the folder, until the type filter keeps the pages.
  await expect(
    page.getByRole('heading', { name: `${options.elements} elements`, level: 2 }),
  ).toBeVisible();
  await page.getByLabel('Element type').selectOption({ label: 'Page' });
  await expect(page.getByRole('heading', { name: '2 elements', level: 2 })).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(2);

  await page.getByRole('link', { name: 'Configure workers' }).click();
  await expect(page).toHaveURL(/\/process\/[0-9a-f-]{36}\/configure$/);
  await page.getByRole('button', { name: 'Add a worker' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a worker' });
  await dialog.getByLabel('Search workers').fill('Tesseract');
  await dialog
    .getByLabel('Worker', { exact: true })
    .selectOption({ label: 'Tesseract OCR (tesseract)' });
  await expect(dialog.getByLabel('Version')).toHaveValue(/.+/);
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('article', { name: 'Tesseract OCR' })).toBeVisible();

  await page.getByLabel('Chunks').fill(String(options.chunks));
  await page.getByRole('button', { name: 'Start process' }).click();
  await expect(page).toHaveURL(/\/process\/[0-9a-f-]{36}$/);
  return new ProcessDetails(page);
}

test('Tesseract reads two printed pages on two agents, and a stopped process retried applies nothing twice', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const shots = test.info().outputPath();
  const email = uniqueEmail('ocr-admin');
  createUser(email, PASSWORD);
  const corpusName = `Printed pages ${email}`;
  const scans = printedPagesFolder(FOLDER);
  const corpusId = importWithCli(scans, corpusName, email);
  removePrintedPages(scans);
  await logIn(page, email);
  const api = new ServerApi(page);
  const pages = await api.get<Listed<{ id: string; name: string }>>(
    `/corpus/${corpusId}/elements/?type=page`,
  );
  const pageIds = [LAUBE_PAGE, BEBEL_PAGE].map(
    (name) => pages.results.find((item) => item.name === name)!.id,
  );
  const [laubeId, bebelId] = pageIds as [string, string];
  /** The lines a worker run read on a page, their texts in order. */
  const linesOf = async (pageId: string, workerRunId: string) =>
    (
      await api.get<Listed<ApiTranscription>>(
        `/element/${pageId}/transcriptions/?recursive=true&page_size=500`,
      )
    ).results
      .filter((item) => item.worker_run?.id === workerRunId)
      .map((item) => item.text)
      .sort();
  const workerRunOf = async (processId: string) =>
    (await api.get<Listed<{ id: string }>>(`/process/${processId}/workers/`)).results[0]!.id;
  const tasksOf = async (processId: string) =>
    (await api.get<ApiProcess>(`/process/${processId}/`)).tasks;
  const logOf = (task: ApiTask) => api.get<ApiTask>(`/task/${task.id}/`).then((t) => t.logs ?? '');

  // Images only: nothing is read before a worker reads it.
  for (const id of pageIds) {
    expect(
      (await api.get<Listed<unknown>>(`/element/${id}/transcriptions/?recursive=true`)).results,
    ).toEqual([]);
  }

  const firstLines = new Map<string, string[]>();
  await test.step('a process over the folder’s pages runs Tesseract in two chunks on both agents', async () => {
    const details = await startTesseractOnFolder(page, corpusName, { chunks: 2, elements: 3 });
    await expect(details.rows()).toHaveCount(2);
    await details.screenshotRunning(api, `${shots}/two-chunks-running.png`);
    await details.expectState('Completed', 90_000);
    await expect(details.rows().locator('[data-state]')).toHaveText(['Completed', 'Completed']);
    // Each agent has one slot and a page takes seconds: the second task went to the other.
    const agents = [EMBEDDED_AGENT, SECOND_AGENT].sort();
    const shown = await details.column('Agent');
    expect(shown.sort()).toEqual(agents);
    const tasks = await tasksOf(details.id);
    expect(tasks.map((task) => task.agent?.hostname).sort()).toEqual(agents);

    const log = await details.openLog(tasks[0]!.slug);
    await expect(log).toContainText('1 element(s), languages frk, page segmentation 3');
    await expect(log).toContainText(/: \d+ line\(s\) in \d+ ms/);
    await expect(log).toContainText('1 of 1 element(s) processed, 0 failed');
    await page.screenshot({ path: `${shots}/two-chunks-completed.png`, fullPage: true });

    const run = await workerRunOf(details.id);
    for (const id of pageIds) firstLines.set(id, await linesOf(id, run));
    expect(firstLines.get(bebelId)!.length).toBeGreaterThan(10);
    expect(firstLines.get(laubeId)!.length).toBeGreaterThan(10);
  });

  await test.step('a page of the folder shows the lines Tesseract read', async () => {
    // Page 97 of "Die Krieger" opens with the song "Grüne Ukraine," (PAGE ground truth).
    const read = (
      await api.get<Listed<ApiTranscription>>(
        `/element/${laubeId}/transcriptions/?recursive=true&page_size=500`,
      )
    ).results;
    const ukraine = read.find((item) => item.text.includes('Grüne Ukraine'));
    expect(ukraine, read.map((item) => item.text).join(' | ')).toBeDefined();
    await page.goto('/browse/');
    await page.getByRole('link', { name: corpusName, exact: true }).click();
    await page.getByRole('link', { name: FOLDER, exact: true }).click();
    await page.getByRole('link', { name: LAUBE_PAGE, exact: true }).click();
    await expect(page.getByRole('heading', { name: LAUBE_PAGE, exact: true })).toBeVisible();
    // Tesseract's lines are the page's children, each opening with its transcription.
    const tree = page.getByRole('navigation', { name: 'Children tree' });
    await tree.getByRole('link', { name: ukraine!.element.name, exact: true }).click();
    const details = page.getByRole('complementary', { name: 'Element details' });
    const transcription = details
      .getByRole('region', { name: 'Transcriptions', exact: true })
      .getByRole('listitem')
      .filter({ hasText: ukraine!.text });
    await expect(transcription).toBeVisible();
    await expect(transcription.getByRole('button', { name: RUN_SUMMARY })).toBeVisible();
    await page.screenshot({ path: `${shots}/page-line.png`, fullPage: true });
  });

  await test.step('a second process is stopped while its task runs, and retried', async () => {
    const details = await startTesseractOnFolder(page, corpusName, {
      chunks: 1,
      // The folder, its pages and the lines the first process read on them.
      elements: 3 + [...firstLines.values()].reduce((sum, lines) => sum + lines.length, 0),
    });
    const processId = details.id;
    // Stopped as soon as an agent holds the task: the two pages keep Tesseract busy for longer
    // than an agent takes to hear of a stop (its next heartbeat, at most 5 s away).
    await expect
      .poll(async () => (await tasksOf(processId))[0]?.state, { intervals: [100], timeout: 30_000 })
      .toBe('running');
    const clicked = Date.now();
    await details.actions.getByRole('button', { name: 'Stop' }).click();
    await details.expectState('Stopped', 30_000);
    test.info().annotations.push({
      type: 'stop',
      description: `stopped ${Date.now() - clicked} ms after the click`,
    });
    await expect(details.actions.getByRole('button', { name: 'Stop' })).toHaveCount(0);
    const [stopped] = await tasksOf(processId);
    expect(stopped!.state).toBe('stopped');
    const stoppedLog = await logOf(stopped!);
    await page.screenshot({ path: `${shots}/stopped.png`, fullPage: true });

    await details.actions.getByRole('button', { name: 'Retry' }).click();
    const runs = page.getByRole('navigation', { name: 'Runs' });
    await expect(runs.getByRole('link', { name: 'Run 1' })).toHaveAttribute('aria-current', 'page');
    await expect(details.rows()).toHaveCount(1);
    await details.screenshotRunning(api, `${shots}/retry-running.png`);
    await details.expectState('Completed', 60_000);
    const retried = (await tasksOf(processId)).find((task) => task.run === 1)!;
    const retriedLog = await details.openLog(retried.slug);
    await expect(retriedLog).toContainText('[agent] Finished (exit code 0).');
    await page.screenshot({ path: `${shots}/retry-completed.png`, fullPage: true });

    // Across both runs each page was read once: what a run finished before the stop is skipped
    // by the retry, and the lines stored are exactly the ones the reading logged.
    const logs = stoppedLog + (await logOf(retried));
    const run = await workerRunOf(processId);
    for (const id of pageIds) {
      const reads = [...logs.matchAll(new RegExp(`^${id}: (\\d+) line\\(s\\)`, 'gm'))];
      expect(reads, logs).toHaveLength(1);
      const lines = await linesOf(id, run);
      expect(lines).toHaveLength(Number(reads[0]![1]));
      // Tesseract reads an image the same way twice: the first process' lines, once.
      expect(lines).toEqual(firstLines.get(id));
    }
    // Whatever the stop interrupted: a page read before it was skipped by the retry.
    for (const id of pageIds) {
      if (new RegExp(`^${id}: \\d+ line\\(s\\)`, 'm').test(stoppedLog)) {
        expect(await logOf(retried)).toContain(`${id}: already taken by this worker run, skipped`);
      }
    }
  });
});
