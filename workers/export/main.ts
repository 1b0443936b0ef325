/**
 * The document export worker, shipped with Folia (one built-in worker per format, run as the
 * single task of an export process): `main.ts --format pdf|pagexml|alto|docx|csv` reads its
 * worker run (the configuration holds the SQLite export's id and the user's options), waits
 * for that export to be done, downloads it, reads the chosen elements' pages from it
 * (exportLayout.ts) and writes the format's file under $PONOS_DATA/artifacts/, which the agent
 * uploads as the task's artifact. It talks to the API only, never to the database, and exits
 * non-zero with the reason on its last line when it cannot write the file.
 */
import fs from 'node:fs/promises';
import BetterSqlite3 from 'better-sqlite3';
import { Api } from '../tesseract/api';
import { mergedConfiguration, type WorkerRunJson } from '../tesseract/configuration';
import { downloadExport, waitForExport, waitOptions } from './download';
import { readEnv } from './env';
import { ExportReader } from './exportLayout';
import { OUTPUT_FILES, writeOutput } from './outputs';
import { readFormat, readSettings } from './settings';

const log = (line: string) => console.log(line);

interface CorpusJson {
  name: string;
  types?: { slug: string; display_name: string }[];
}

async function main(): Promise<number> {
  const format = readFormat(process.argv.slice(2));
  const env = readEnv();
  const api = new Api(env.apiUrl, env.authorization);
  const run = await api.json<WorkerRunJson>('GET', `process/workers/${env.workerRunId}/`);
  const settings = readSettings(mergedConfiguration(run));
  const corpusId = env.corpusId ?? run.process.corpus;
  if (!corpusId) throw new Error('This worker run belongs to no project: nothing to export.');
  const elements = JSON.parse(await fs.readFile(env.elementsFile, 'utf8')) as { id: string }[];
  if (elements.length === 0) throw new Error('The task has no elements to export.');
  log(
    `${OUTPUT_FILES[format]}: ${elements.length} chosen element(s), SQLite export ${settings.exportId}`,
  );

  await waitForExport(api, corpusId, settings.exportId, waitOptions(log));
  const file = await downloadExport(api, env.authorization, settings.exportId, env.dataDir);
  log(`SQLite export downloaded (${(await fs.stat(file)).size} bytes)`);

  // The project's type names label the regions as the server's own exports do.
  let corpus: CorpusJson = { name: 'export' };
  try {
    corpus = await api.json<CorpusJson>('GET', `corpus/${corpusId}/`);
  } catch (error) {
    log(
      `The project's element types could not be read, slugs label the regions: ${(error as Error).message}`,
    );
  }
  const typeNames = new Map((corpus.types ?? []).map((type) => [type.slug, type.display_name]));

  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const written = await writeOutput(format, {
      reader: new ExportReader(db),
      api,
      roots: elements.map((element) => element.id),
      settings,
      typeNames,
      foliaRoot: env.apiUrl.replace(/api\/v1\/$/, ''),
      artifactsDir: env.artifactsDir,
      title: corpus.name,
      log,
    });
    log(`Wrote ${written} (${(await fs.stat(written)).size} bytes)`);
  } finally {
    db.close();
    await fs.rm(file, { force: true });
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    console.error(`The export failed: ${error.message}`);
    process.exit(1);
  },
);
