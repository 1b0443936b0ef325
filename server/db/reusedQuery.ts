/**
 * A query of one shape, built by the query builder once and then run again with other values.
 * Building and compiling the element detail's queries cost the server about as much as SQLite
 * took to answer them (a CPU profile of the detail: 0.13 ms of query building a request); the
 * queries every element call starts with are built here once instead.
 *
 * `build` runs once per database handle with marker strings in place of the values; later calls
 * put their values where the markers were bound. Only for queries whose SQL does not depend on
 * the values (no lists of varying length, no value looked at in JavaScript), with string values.
 */
import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './index';

interface Compiled<Row> {
  query: CompiledQuery<Row>;
  /** For each value, the positions of the parameters it is bound to. */
  slots: number[][];
}

export function reusedQuery<Args extends string[], Row>(
  build: (db: Db, ...values: Args) => Compilable<Row>,
): (db: Db, ...values: Args) => Promise<Row[]> {
  const compiled = new WeakMap<Db, Compiled<Row>>();
  // Mixed case, so that a value lowercased or otherwise changed on its way is noticed.
  const compile = (db: Db, count: number): Compiled<Row> => {
    const markers = Array.from({ length: count }, (_, i) => `\u0000Reused VALUE ${i}\u0000`);
    const query = build(db, ...(markers as Args)).compile();
    const slots = markers.map((marker) =>
      query.parameters.flatMap((parameter, at) => (parameter === marker ? [at] : [])),
    );
    if (slots.some((slot) => slot.length === 0) || markers.some((m) => query.sql.includes(m))) {
      throw new Error('reusedQuery: each value must be bound as a parameter of the query');
    }
    return { query, slots };
  };
  return async (db, ...values) => {
    let entry = compiled.get(db);
    if (!entry) {
      entry = compile(db, values.length);
      compiled.set(db, entry);
    }
    const parameters = [...entry.query.parameters];
    entry.slots.forEach((slot, i) => {
      for (const at of slot) parameters[at] = values[i];
    });
    const result = await db.executeQuery<Row>({ ...entry.query, parameters });
    return result.rows;
  };
}
