import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { E2E_DATA_DIR } from '../../playwright.config';
import { SHARED_DATA_DIR } from '../../tests/server/sharedData';

const PRINTED = path.join(SHARED_DATA_DIR, 'ocrd-gt_structure_text');
/**
 * Two printed German pages, numbered in the folder so that a process reads them in this
 * order: page 97 of Laube's "Die Krieger" (1837, Fraktur), read in a few seconds, then page
 * 140 of Bebel's "Die Frau und der Sozialismus" (1879), a dense bilevel scan Tesseract needs
 * several seconds more for: together long enough for a task to be seen running and stopped.
 */
export const LAUBE_PAGE = '1_laube_europa0202_1837_0105';
export const BEBEL_PAGE = '2_bebel_frau_1879_0146';
const SOURCES: Record<string, string> = {
  [LAUBE_PAGE]: 'laube_europa0202_1837/GT-PAGE/laube_europa0202_1837_0105.jpg',
  [BEBEL_PAGE]: 'bebel_frau_1879/GT-PAGE/bebel_frau_1879_0146.tif',
};

/**
 * A folder holding the two page images only, outside the repository: without their PAGE XML
 * the import brings no lines, so every line the test sees was read by Tesseract.
 */
export function printedPagesFolder(folderName: string): string {
  const folder = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'folia-printed-')), folderName);
  fs.mkdirSync(folder);
  for (const [name, source] of Object.entries(SOURCES)) {
    fs.copyFileSync(path.join(PRINTED, source), path.join(folder, name + path.extname(source)));
  }
  return folder;
}

/** Removes the temporary folder `printedPagesFolder` made, and nothing else. */
export function removePrintedPages(folder: string): void {
  const parent = path.dirname(folder);
  if (!path.basename(parent).startsWith('folia-printed-')) {
    throw new Error(`Not a folder of printed pages: ${folder}`);
  }
  fs.rmSync(parent, { recursive: true, force: true });
}

/**
 * Why Tesseract tasks cannot run here, or null when Debian's Fraktur model is installed. CI
 * installs it (.ci/run): there a missing model fails the run instead of skipping the spec.
 */
export function tesseractMissing(): string | null {
  const reason = tesseractProblem();
  if (reason && process.env.CI === '1') throw new Error(`CI=1 but ${reason}`);
  return reason;
}

function tesseractProblem(): string | null {
  const listed = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8' });
  if (listed.error || listed.status !== 0) {
    return 'tesseract is not installed (apt-get install tesseract-ocr tesseract-ocr-frk)';
  }
  return /^frk$/m.test(`${listed.stdout}${listed.stderr}`)
    ? null
    : "tesseract has no Fraktur model 'frk' (apt-get install tesseract-ocr-frk)";
}

/** The Default farm's agent token, as an operator reads it with `npm run cli -- farms`. */
export function defaultFarmToken(): string {
  const output = execFileSync(
    path.join('node_modules', '.bin', 'tsx'),
    ['server/cli.ts', 'farms'],
    { env: { ...process.env, FOLIA_DATA_DIR: E2E_DATA_DIR, DATABASE_URL: '' }, stdio: 'pipe' },
  ).toString();
  const token = output
    .split('\n')
    .map((line) => line.split('\t'))
    .find(([name]) => name === 'Default farm')?.[2];
  if (!token) throw new Error(`No "Default farm" in:\n${output}`);
  return token;
}

export interface RunningAgent {
  hostname: string;
  /** Everything it printed so far, for a failure's report. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * An agent of its own, as an operator starts one on a second machine: registered with the
 * farm's token before this resolves, so the next tasks may go to it.
 */
export async function startAgent(
  baseURL: string,
  options: { hostname: string; slots: number; farmToken?: string },
): Promise<RunningAgent> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folia-e2e-agent-'));
  // The token goes by the environment (which the agent reads too): a command line is visible
  // to every local user.
  // A heartbeat every second: a stop asked for reaches its task at once.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FOLIA_FARM_TOKEN: options.farmToken ?? defaultFarmToken(),
    FOLIA_AGENT_HEARTBEAT_S: '1',
  };
  delete env.FOLIA_AGENT_SLOTS;
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'agent/main.ts',
      '--url',
      baseURL,
      '--hostname',
      options.hostname,
      '--slots',
      String(options.slots),
      '--work-dir',
      workDir,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const registered = new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/registered as [0-9a-f-]{36}/.test(output)) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() => reject(new Error(`The agent exited before registering:\n${output}`)));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killed);
    }
    fs.rmSync(workDir, { recursive: true, force: true });
  };
  try {
    await Promise.race([
      registered,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`The agent did not register:\n${output}`)), 30_000),
      ),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { hostname: options.hostname, output: () => output, stop };
}

export interface ApiTask {
  id: string;
  run: number;
  slug: string;
  state: string;
  agent: { hostname: string } | null;
  logs?: string;
}

export interface ApiProcess {
  id: string;
  state: string;
  chunks: number;
  tasks: ApiTask[];
}

/**
 * A process' details page as its admin reads it: the state next to the title, the actions,
 * the runs and one table of tasks per worker run, each task opening its log.
 */
export class ProcessDetails {
  /** The process' own state badge, beside its name. */
  readonly state: Locator;
  readonly actions: Locator;
  readonly tasks: Locator;

  constructor(readonly page: Page) {
    this.state = page.getByRole('heading', { level: 1 }).locator('..').locator('[data-state]');
    this.actions = page.getByRole('group', { name: 'Process actions' });
    this.tasks = page.getByRole('region', { name: 'Tasks' });
  }

  get id(): string {
    return new URL(this.page.url()).pathname.split('/')[2]!;
  }

  /**
   * The page as it is while the process runs: the details poll every few seconds and a task
   * may last less, so once the server says a task runs the page is read again.
   */
  async screenshotRunning(api: { get<T>(url: string): Promise<T> }, file: string): Promise<void> {
    await expect
      .poll(
        async () =>
          (await api.get<ApiProcess>(`/process/${this.id}/`)).tasks.some(
            (task) => task.state === 'running',
          ),
        { intervals: [100], timeout: 30_000 },
      )
      .toBe(true);
    await this.page.reload();
    await expect(this.state).toHaveText(/Running|Completed/);
    await this.page.screenshot({ path: file, fullPage: true });
  }

  async expectState(label: string, timeout = 60_000): Promise<void> {
    await expect(this.state).toHaveText(label, { timeout });
  }

  /** The rows of the tasks tables (header rows left out). */
  rows(): Locator {
    return this.tasks.locator('tbody tr');
  }

  /** What the tasks' rows show under a column, read by its header. */
  async column(name: string): Promise<string[]> {
    const headers = await this.tasks.locator('thead').first().locator('th').allTextContents();
    const index = headers.indexOf(name);
    if (index < 0) throw new Error(`No column ${name} in ${headers.join(', ')}`);
    return this.rows()
      .locator(`td:nth-child(${index + 1})`)
      .allTextContents();
  }

  row(slug: string): Locator {
    return this.rows().filter({ has: this.page.getByRole('button', { name: slug, exact: true }) });
  }

  /** Opens a task's panel and answers its log. */
  async openLog(slug: string): Promise<Locator> {
    await this.row(slug).getByRole('button', { name: slug, exact: true }).click();
    const log = this.page.getByRole('log', { name: `Logs of ${slug}` });
    await expect(log).toBeVisible();
    return log;
  }
}
