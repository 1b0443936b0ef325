/**
 * Tesseract OCR, a worker shipped with Folia (run as a task by an agent, or by hand with
 * ARKINDEX_API_TOKEN): for each element of its chunk it reports the activity started (skipping
 * an element another copy took), reads the element's image region with Debian's `tesseract`,
 * stores what it found through the API, and reports the element processed, or error and goes
 * on with the next. It exits non-zero when every element it tried failed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { Api, ApiCallError } from './api';
import {
  mergedConfiguration,
  readSettings,
  type Settings,
  type WorkerRunJson,
} from './configuration';
import { processElement } from './element';
import { readEnv, type WorkerEnv } from './env';
import { installModel } from './model';
import { NOT_INSTALLED, tesseractInstalled } from './tesseract';

const log = (line: string) => console.log(line);

async function main(): Promise<number> {
  if (!(await tesseractInstalled())) {
    console.error(NOT_INSTALLED);
    return 1;
  }
  const env = readEnv();
  const api = new Api(env.apiUrl, env.authorization);
  const run = await api.json<WorkerRunJson>('GET', `process/workers/${env.workerRunId}/`);
  const settings = readSettings(mergedConfiguration(run));
  const elements = JSON.parse(await fs.readFile(env.elementsFile, 'utf8')) as { id: string }[];

  try {
    return await processElements(api, run, settings, elements, env);
  } finally {
    if (env.ownDataDir) await fs.rm(env.dataDir, { recursive: true, force: true });
  }
}

async function processElements(
  api: Api,
  run: WorkerRunJson,
  settings: Settings,
  elements: { id: string }[],
  env: WorkerEnv,
): Promise<number> {
  const processId = env.processId ?? run.process.id;
  let tessdata: string | undefined;
  let languages = settings.languages;
  if (run.model_version) {
    const model = await installModel(api, run.model_version, env.dataDir);
    tessdata = model.tessdata;
    languages = model.language;
    log(`model ${run.model_version.model.name}: Tesseract language ${languages}`);
  }
  log(
    `${elements.length} element(s), languages ${languages}, ` +
      (settings.createLines
        ? `page segmentation ${settings.psm}`
        : `existing ${settings.lineType}`),
  );

  const activity = (elementId: string, state: 'started' | 'processed' | 'error') =>
    api.fetch('PUT', `workers/versions/${run.id}/activity/`, {
      element_id: elementId,
      process_id: processId,
      state,
    });

  let tried = 0;
  let failed = 0;
  for (const element of elements) {
    try {
      await activity(element.id, 'started');
    } catch (error) {
      if (error instanceof ApiCallError && error.status === 409) {
        log(`${element.id}: already taken by this worker run, skipped`);
        continue;
      }
      throw error;
    }
    tried += 1;
    const started = Date.now();
    try {
      const outcome = await processElement(
        {
          api,
          settings,
          workerRunId: run.id,
          scratch: path.join(env.dataDir, 'elements', element.id),
          tessdata,
          languages,
          log,
        },
        element.id,
      );
      await activity(element.id, 'processed');
      const regions = outcome.regions ? `, ${outcome.regions} region(s)` : '';
      log(`${element.id}: ${outcome.lines} line(s)${regions} in ${Date.now() - started} ms`);
    } catch (error) {
      failed += 1;
      console.error(`${element.id}: ${(error as Error).message}`);
      await activity(element.id, 'error').catch((reported: Error) =>
        console.error(`${element.id}: the error could not be reported: ${reported.message}`),
      );
    }
  }
  log(`${tried - failed} of ${tried} element(s) processed, ${failed} failed`);
  return tried > 0 && failed === tried ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(error.message);
    process.exit(1);
  },
);
