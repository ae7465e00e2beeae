import { beforeAll, expect, it } from "vitest";
import { describeEachDialect, useTestDatabase } from "../test/harness.js";
import { compiledOnce } from "./compiled-once.js";

describeEachDialect("compiledOnce", (dialect) => {
  const database = useTestDatabase(dialect);
  beforeAll(async () => {
    const now = new Date().toISOString();
    for (const id of ["a", "b"])
      await database.db
        .insertInto("waitlist_entry")
        .values({ id, name: id, email: `${id}@example.com`, created_at: now })
        .execute();
  });

  it("compiles once and binds each call's values", async () => {
    let builds = 0;
    const byEmail = compiledOnce(database.db, (db, email: string) => {
      builds++;
      return db.selectFrom("waitlist_entry").select("id").where("email", "=", email);
    });
    expect(await byEmail("a@example.com")).toEqual([{ id: "a" }]);
    expect(await byEmail("b@example.com")).toEqual([{ id: "b" }]);
    expect(await byEmail("nobody@example.com")).toEqual([]);
    expect(builds).toBe(1);
  });

  it("refuses values that do not fit the compiled query", async () => {
    const byNothing = compiledOnce(database.db, (db, _unused: string) => db.selectFrom("waitlist_entry").select("id"));
    await expect(byNothing("x")).rejects.toThrow(/0 parameters, got 1/);
  });
});
