import { parseFlags, withDatabase, type Command } from './command';

/**
 * The farms and the tokens their agents register with (`npm run agent -- --farm-token T`):
 * one farm a line, name, id and token separated by tabs, so a script can cut the token out.
 */
export const farmsCommand: Command = {
  name: 'farms',
  summary: 'List farms with their ids and agent tokens (for npm run agent -- --farm-token)',
  usage: 'farms',
  async run(args, context) {
    parseFlags(args, {});
    const farms = await withDatabase(context, (db) =>
      db.selectFrom('farms').select(['id', 'name', 'token']).orderBy('name').execute(),
    );
    for (const farm of farms) context.output.out(`${farm.name}\t${farm.id}\t${farm.token}`);
    return 0;
  },
};
