import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Db } from '../db';
import { runImport } from '../imports/execute';
import { summarizeReport } from '../imports/report';
import { insertCorpus } from '../services/corpora';
import { CommandError, withDatabase, type Command, type CommandContext } from './command';
import { loadConfig } from '../config';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parse(args: string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        corpus: { type: 'string' },
        parent: { type: 'string' },
        'folder-name': { type: 'string' },
        owner: { type: 'string' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new CommandError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new CommandError('Give one file or folder to import.');
  if (!values.corpus) throw new CommandError('--corpus is required.');
  return { source: positionals[0]!, ...values, corpus: values.corpus };
}

/** npm runs scripts from the package folder; a relative path means the typist's folder. */
function resolveSource(source: string, env: NodeJS.ProcessEnv): string {
  return path.resolve(env.INIT_CWD ?? process.cwd(), source);
}

/** The project named (or with the id) given; created, owned by --owner or the first site admin, when missing. */
async function findOrCreateCorpus(
  db: Db,
  nameOrId: string,
  ownerEmail: string | undefined,
  parent: string | undefined,
): Promise<{ id: string; name: string; created: boolean }> {
  if (UUID.test(nameOrId)) {
    const byId = await db
      .selectFrom('corpora')
      .select(['id', 'name'])
      .where('id', '=', nameOrId.toLowerCase())
      .executeTakeFirst();
    if (byId) return { ...byId, created: false };
  }
  const byName = await db
    .selectFrom('corpora')
    .select(['id', 'name'])
    .where('name', '=', nameOrId)
    .execute();
  if (byName.length > 1) {
    throw new CommandError(
      `${byName.length} projects are named "${nameOrId}": give the id of one (${byName.map((c) => c.id).join(', ')}).`,
    );
  }
  if (byName[0]) return { ...byName[0], created: false };
  // A new project holds no element to import into.
  if (parent) throw new CommandError(`--parent: no element ${parent} in project "${nameOrId}".`);

  let owner: { id: string } | undefined;
  if (ownerEmail) {
    owner = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', ownerEmail.trim().toLowerCase())
      .executeTakeFirst();
    if (!owner) throw new CommandError(`--owner: no user has the e-mail ${ownerEmail}.`);
  } else {
    owner = await db
      .selectFrom('users')
      .select('id')
      .where('is_admin', '=', 1)
      .orderBy('created')
      .limit(1)
      .executeTakeFirst();
  }
  const corpus = await insertCorpus(
    db,
    { name: nameOrId, description: '', public: false },
    owner?.id ?? null,
  );
  return { id: corpus.id, name: corpus.name, created: true };
}

async function run(args: string[], context: CommandContext): Promise<number> {
  const options = parse(args);
  const config = { ...loadConfig(context.env), ...context.overrides };
  const { output } = context;
  const source = resolveSource(options.source, context.env);
  if (!fs.existsSync(source)) {
    throw new CommandError(`Nothing to import at ${options.source}: no such file or folder.`);
  }
  return withDatabase(context, async (db) => {
    const corpus = await findOrCreateCorpus(db, options.corpus, options.owner, options.parent);
    if (options.parent) {
      const parent = UUID.test(options.parent)
        ? await db
            .selectFrom('elements')
            .select('id')
            .where('id', '=', options.parent.toLowerCase())
            .where('corpus_id', '=', corpus.id)
            .executeTakeFirst()
        : undefined;
      if (!parent) {
        throw new CommandError(
          `--parent: no element ${options.parent} in project "${corpus.name}".`,
        );
      }
    }
    output.out(`${corpus.created ? 'Created' : 'Using'} project "${corpus.name}": ${corpus.id}`);
    let shown = -1;
    const report = await runImport(
      { db, dataDir: config.dataDir, jpegQuality: config.iiifJpegQuality },
      source,
      {
        corpusId: corpus.id,
        userId: null,
        parentId: options.parent?.toLowerCase() ?? null,
        folderName: options['folder-name'],
      },
      {
        progress: (fraction) => {
          const percent = Math.floor(fraction * 10) * 10;
          if (percent > shown) {
            shown = percent;
            output.out(`Importing… ${percent}%`);
          }
        },
      },
    );
    output.out(`Imported ${summarizeReport(report)}.`);
    if (report.types_created.length) {
      output.out(`New element types: ${report.types_created.join(', ')}.`);
    }
    if (report.element_id) output.out(`Imported into element ${report.element_id}`);
    for (const problem of report.problems) output.err(`${problem.file}: ${problem.reason}`);
    output.out(`Project id: ${corpus.id}`);
    return report.pages === 0 && report.problems.length > 0 ? 1 : 0;
  });
}

export const importCommand: Command = {
  name: 'import',
  summary: 'Import images, PAGE XML, ALTO or IIIF manifests into a project',
  usage: 'import PATH --corpus NAME|ID [--parent ELEMENT_ID] [--folder-name N] [--owner EMAIL]',
  run,
};
