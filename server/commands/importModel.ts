import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { nowIso } from '../clock';
import { loadConfig } from '../config';
import type { Db } from '../db';
import { LEVEL } from '../permissions';
import { storeArchive } from '../services/models/archives';
import { MODEL_NAME_MAX } from '../services/models/models';
import { CommandError, parseFlags, withDatabase, type Command } from './command';

const FLAGS = {
  name: { required: true },
  file: { required: true },
  tag: { required: false },
  owner: { required: false },
} as const;

/** The model of that name, made (owned by `ownerId` when given) if there is none. */
async function findOrCreateModel(db: Db, name: string, ownerId: string | null): Promise<string> {
  const existing = await db
    .selectFrom('models')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirst();
  if (existing) return existing.id;
  const id = randomUUID();
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('models')
      .values({ id, name, description: '', created: now, updated: now })
      .execute();
    if (ownerId) {
      await trx
        .insertInto('model_memberships')
        .values({
          id: randomUUID(),
          model_id: id,
          user_id: ownerId,
          level: LEVEL.admin,
          created: now,
        })
        .execute();
    }
  });
  return id;
}

/**
 * Publishes an archive already on the server's disk as a new version of a model, through the
 * same storage code as an upload; prints the version's id, for scripts.
 */
export const importModelCommand: Command = {
  name: 'import-model',
  summary: 'Store a model archive as a new version of a model (made if missing)',
  usage: 'import-model --name N --file F [--tag T] [--owner EMAIL]',
  async run(args, context) {
    const flags = parseFlags(args, FLAGS);
    const name = flags.name.trim();
    if (!name) throw new CommandError('--name may not be blank.');
    if (name.length > MODEL_NAME_MAX) {
      throw new CommandError(`--name may have at most ${MODEL_NAME_MAX} characters.`);
    }
    const tag = flags.tag?.trim() || null;
    // npm runs scripts from the package folder; a relative path means the typist's folder.
    const file = path.resolve(context.env.INIT_CWD ?? process.cwd(), flags.file);
    let size: number;
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile()) throw new CommandError(`--file: ${file} is not a file.`);
      size = stat.size;
    } catch (error) {
      if (error instanceof CommandError) throw error;
      throw new CommandError(`--file: cannot read ${file}.`);
    }
    const config = { ...loadConfig(context.env), ...context.overrides };
    const versionId = await withDatabase(context, async (db) => {
      let ownerId: string | null = null;
      if (flags.owner) {
        const owner = await db
          .selectFrom('users')
          .select('id')
          .where((eb) => eb(eb.fn('lower', ['email']), '=', flags.owner!.toLowerCase()))
          .executeTakeFirst();
        if (!owner) throw new CommandError(`--owner: no user with the email ${flags.owner}.`);
        ownerId = owner.id;
      }
      const modelId = await findOrCreateModel(db, name, ownerId);
      if (tag) {
        const taken = await db
          .selectFrom('model_versions')
          .select('id')
          .where('model_id', '=', modelId)
          .where('tag', '=', tag)
          .executeTakeFirst();
        if (taken)
          throw new CommandError(`--tag: model ${name} already has a version tagged ${tag}.`);
      }
      const now = nowIso();
      const version = await db
        .insertInto('model_versions')
        .values({
          id: randomUUID(),
          model_id: modelId,
          tag,
          description: '',
          parent_id: null,
          hash: null,
          archive_hash: null,
          size: null,
          state: 'created',
          configuration: '{}',
          created: now,
          updated: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      try {
        await storeArchive(db, config.dataDir, version, fs.createReadStream(file), size);
      } catch (error) {
        // A version without its archive is of no use to anyone: an import is all or nothing.
        await db.deleteFrom('model_versions').where('id', '=', version.id).execute();
        throw error;
      }
      return version.id;
    });
    context.output.out(versionId);
    return 0;
  },
};
