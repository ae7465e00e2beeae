import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { openConfiguredDatabase } from "./open.js";

// Decision 016: SQLite syncs every commit (FULL) unless SQLITE_SYNCHRONOUS=normal says otherwise.
describe("SQLite synchronous setting", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "unheard-sync-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const level = async (env: Record<string, string>) => {
    const database = openConfiguredDatabase(loadConfig({ DATA_DIR: dir, AUTH_SECRET: "s".repeat(40), ...env }));
    try {
      const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db);
      return rows[0]?.synchronous;
    } finally {
      await database.close();
    }
  };

  it("is FULL by default and NORMAL when asked", async () => {
    // SQLite's numbers: 1 = NORMAL, 2 = FULL.
    expect(await level({})).toBe(2);
    expect(await level({ SQLITE_SYNCHRONOUS: "full" })).toBe(2);
    expect(await level({ SQLITE_SYNCHRONOUS: "normal" })).toBe(1);
    expect(() => loadConfig({ DATA_DIR: dir, SQLITE_SYNCHRONOUS: "off" })).toThrow(/SQLITE_SYNCHRONOUS/);
  });
});
