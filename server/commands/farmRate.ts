import { CommandError, parseFlags, withDatabase, type Command } from './command';
import { setFarmRate } from '../services/budgets/farms';
import { parseMoney } from '../services/budgets/money';

/**
 * A farm's hourly rate, which budgets charge finished tasks at (enterprise edition): the same
 * setting as PATCH /farm/{id}/, for an operator at the server's console.
 */
export const farmRateCommand: Command = {
  name: 'farm-rate',
  summary: "Set a farm's cost per hour of task time, which budgets charge (e.g. 12.50)",
  usage: 'farm-rate --farm <name or id> --rate <decimal>',
  async run(args, context) {
    const flags = parseFlags(args, { farm: { required: true }, rate: { required: true } });
    const rate = parseMoney(flags.rate, 'rate');
    if (typeof rate !== 'number') throw new CommandError(`--rate: ${rate.detail}`);
    const farm = await withDatabase(context, async (db) => {
      const found = await db
        .selectFrom('farms')
        .select('id')
        .where((eb) =>
          eb.or([eb('name', '=', flags.farm), eb('id', '=', flags.farm.toLowerCase())]),
        )
        .executeTakeFirst();
      if (!found) throw new CommandError(`No farm named or numbered "${flags.farm}".`);
      return setFarmRate(db, found.id, rate);
    });
    context.output.out(`${farm.name}\t${farm.id}\t${farm.rate} an hour`);
    return 0;
  },
};
