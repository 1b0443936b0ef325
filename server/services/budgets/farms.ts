/** A farm's hourly rate, which finished tasks are charged at (charges.ts); site admins set it. */
import type { Db } from '../../db';
import { notFound } from '../../errors';
import { requireUuid } from '../../permissions';
import { formatMoney } from './money';

export interface FarmRateJson {
  id: string;
  name: string;
  rate: string;
}

export async function setFarmRate(db: Db, rawId: string, rate: number): Promise<FarmRateJson> {
  const id = requireUuid(rawId);
  const updated = await db
    .updateTable('farms')
    .set({ rate })
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw notFound();
  const farm = await db
    .selectFrom('farms')
    .select(['id', 'name', 'rate'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { id: farm.id, name: farm.name, rate: formatMoney(farm.rate) };
}
