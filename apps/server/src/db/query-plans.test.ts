import { createHmac } from "node:crypto";
import { CompiledQuery, type KyselyPlugin, type RootOperationNode } from "kysely";
import { expect, it } from "vitest";
import { createSessionReader } from "../modules/auth/session-reader.js";
import { createPlaysRepo } from "../modules/plays/plays.repo.js";
import { createSongsRepo } from "../modules/songs/songs.repo.js";
import { trustRepo } from "../modules/trust/trust.repo.js";
import { createUsersRepo } from "../modules/users/users.repo.js";
import { createVotesRepo } from "../modules/votes/votes.repo.js";
import { describeEachDialect, useTestDatabase } from "../test/harness.js";
import type { Database } from "./database.js";

/** Records every query a repo runs, so its real SQL can be explained afterwards. */
function recorder() {
  const nodes: RootOperationNode[] = [];
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      nodes.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { nodes, plugin };
}

/** The plan of each query, as one text per query. */
async function plans(database: Database, nodes: RootOperationNode[]): Promise<string[]> {
  const { db } = database;
  const out: string[] = [];
  for (const node of nodes) {
    const compiled = db.getExecutor().compileQuery(node, { queryId: "plan" });
    if (database.dialect === "sqlite") {
      const res = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      out.push(res.rows.map((r) => r.detail).join(" | "));
    } else {
      // Tiny test tables make a scan cheapest; forbid it, so a plan that still scans has no index to use.
      const text = await db.transaction().execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw("set local enable_seqscan = off"));
        const res = await trx.executeQuery<{ "QUERY PLAN": string }>(
          CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
        );
        return res.rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
      out.push(text);
    }
  }
  return out;
}

const TABLES = ["song", "song_artist", "favorite", "vote", "user", "session", "song_play"];

/**
 * A plan reads a whole table when SQLite scans one of ours (even walking an index in order), or PostgreSQL
 * falls back to a sequential scan. Scanning a subquery's rows is fine.
 */
function scans(dialect: Database["dialect"], plan: string): boolean {
  if (dialect === "postgres") return /Seq Scan/.test(plan);
  return plan.split(" | ").some((step) => TABLES.some((t) => new RegExp(`^SCAN ${t}\\b`).test(step)));
}

// Each read path of the home feed, song page, search, sessions, profile and play counting is answered from an index,
// so its cost follows the page, not the catalogue (the growth benchmark measures the same at 10,000 and 1,000,000
// songs).
describeEachDialect("query plans", (dialect) => {
  const database = useTestDatabase(dialect);

  const filters = { genre: "All", release: "all", next7: false } as const;
  const cases: [string, (db: Database) => Promise<unknown>][] = [
    ["newest feed", (db) => createSongsRepo(db).newest(filters, undefined, 25)],
    [
      "newest feed, later page",
      (db) => createSongsRepo(db).newest(filters, { createdAt: "2026-01-01T00:00:00.000Z", id: "m" }, 25),
    ],
    ["newest feed, one genre", (db) => createSongsRepo(db).newest({ ...filters, genre: "Rock" }, undefined, 25)],
    ["trending feed", (db) => createSongsRepo(db).trending(filters, 0, 25)],
    ["song page", (db) => createSongsRepo(db).findCard("some-song")],
    ["cards by id", (db) => createSongsRepo(db).findCards(["a", "b"])],
    ["version facts", (db) => createSongsRepo(db).versionFacts(["a", "b"], ["c"])],
    [
      "versions of a song",
      (db) => createSongsRepo(db).versionsOf("some-song", { hidden: false, pending: false, ownerId: "some-user" }),
    ],
    ["pending version counts", (db) => createSongsRepo(db).pendingVersionCounts(["a", "b"])],
    ["viewer state", (db) => createSongsRepo(db).viewerState("some-user", ["a", "b"])],
    ["profile's upload count", (db) => createUsersRepo(db).uploadCount("some-user")],
    [
      "play's once-an-hour check",
      (db) => createPlaysRepo(db).playedSince(db.db, "some-song", "some-listener", "2026-01-01T00:00:00.000Z"),
    ],
    [
      "session",
      (db) =>
        createSessionReader({ database: db, secret: "s".repeat(32), secureCookies: false }).read(
          // A well-formed signed cookie for token "t" (the signature is checked before the query runs).
          `unheard.session_token=${encodeURIComponent(`t.${signed("t", "s".repeat(32))}`)}`,
        ),
    ],
  ];

  for (const [name, run] of cases) {
    it(`answers the ${name} from indexes`, async () => {
      const rec = recorder();
      // The repo runs against a recording view of the same database.
      await run({ ...database, db: database.db.withPlugin(rec.plugin) });
      expect(rec.nodes.length).toBeGreaterThan(0);
      for (const plan of await plans(database, rec.nodes)) expect(scans(dialect, plan), plan).toBe(false);
    });
  }

  it("counts a song's votes from an index on the song, not from every counted vote", async () => {
    const rec = recorder();
    await createVotesRepo(database).countedVotes(database.db.withPlugin(rec.plugin), "some-song");
    const [plan = ""] = await plans(database, rec.nodes);
    // SQLite names the index's key columns; PostgreSQL its index condition.
    if (dialect === "sqlite")
      expect(plan).toMatch(/USING (COVERING )?INDEX vote_song_counted_idx \(song_id=\? AND counted=\?\)/);
    else expect(plan).toMatch(/Index (Only )?Scan using vote_song_counted_idx/);
  });

  it("counts a member's accepted contributions from indexes on the member, not on the status", async () => {
    const rec = recorder();
    await trustRepo.accepted(database.db.withPlugin(rec.plugin), "some-user", 20);
    const [plan = ""] = await plans(database, rec.nodes);
    if (dialect === "sqlite") {
      expect(plan).toMatch(/INDEX song_submitter_status_idx \(submitted_by=\? AND status=\?\)/);
      expect(plan).toMatch(/INDEX edit_suggestion_submitter_status_idx \(submitted_by=\? AND status=\?\)/);
    } else {
      expect(plan).toMatch(/song_submitter_status_idx/);
      expect(plan).toMatch(/edit_suggestion_submitter_status_idx/);
    }
  });

  it("notices a scan when there is one", async () => {
    // The check itself must be able to fail: an unindexed filter on song is a scan on both engines.
    const rec = recorder();
    await database.db
      .withPlugin(rec.plugin)
      .selectFrom("song")
      .select("id")
      .where("soundcloud_url", "=", "x")
      .execute();
    const [plan] = await plans(database, rec.nodes);
    expect(scans(dialect, plan ?? "")).toBe(true);
  });
});

function signed(token: string, secret: string): string {
  return createHmac("sha256", secret).update(token).digest("base64");
}
