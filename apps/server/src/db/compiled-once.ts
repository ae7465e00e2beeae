import type { Compilable, CompiledQuery, Kysely } from "kysely";
import type { DB } from "./schema.js";

/**
 * A hot query built and compiled by Kysely once, then run with new values in its parameter slots. Kysely
 * rebuilds and recompiles every query on every call (a tenth of a signed-in request's CPU); queries of a
 * fixed shape need not. `build` takes the values to compile with; each call must pass values in the same
 * order and number, which a query of fixed shape guarantees.
 */
export function compiledOnce<R, P extends unknown[]>(
  db: Kysely<DB>,
  build: (db: Kysely<DB>, ...values: P) => Compilable<R>,
): (...values: P) => Promise<R[]> {
  let compiled: CompiledQuery<R> | undefined;
  return async (...values) => {
    compiled ??= build(db, ...values).compile();
    if (compiled.parameters.length !== values.length)
      throw new Error(`compiledOnce: query has ${compiled.parameters.length} parameters, got ${values.length}`);
    return (await db.executeQuery<R>({ ...compiled, parameters: values })).rows;
  };
}
