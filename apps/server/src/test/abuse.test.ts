// Runs the abuse table (abuse-matrix.ts): every action past its limit, one attempt after another and all at once, on
// each dialect. The limit must hold (exactly the allowed attempts succeed, the rest get the refusal with a message),
// the rows made must be what the limit allows, only the action's own tables may change, and counters stay equal to
// the rows they count.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { REPORTS_PER_MINUTE } from "@unheard/shared";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../lib/ids.js";
import type { RendererModule } from "../lib/page-render.js";
import { nameKey } from "../lib/text.js";
import { nowIso } from "../lib/time.js";
import { ABUSE_MATRIX, type AbuseAnswer, type AbuseCase, type AbuseKit } from "./abuse-matrix.js";
import { expectConsistent } from "./consistency.js";
import { member, upload, wavFile } from "./fixtures.js";
import { describeEachDialect, outboxFor, signUp, type TestContext, useTestApp } from "./harness.js";
import { changedTables, snapshotTables, tableNames } from "./table-snapshot.js";
import { useWebDist } from "./web-dist.js";

/** Counters that count attempts (refused ones too) and sessions are not the action's rows. */
const UNCOMPARED = new Set(["rate_limit", "session"]);
/** Trust rules and caps at their defaults, so a fresh account is a new member (trust level 0); sign-ups scaled
 * up, since the table makes many fresh accounts from one address (the login rows set the scale back to 1). */
const SUITE_ENV = {
  DAILY_CAPS: "true",
  VOTE_MIN_ACCOUNT_DAYS: "7",
  VOTE_MIN_RECORD: "3",
  AUTH_LIMIT_SCALE: "1000",
  REPORTS_PER_MINUTE: String(REPORTS_PER_MINUTE),
};
const PASSWORD = "secret123";

// The web app's renderer from its sources, for the rows that ask for pages (as lib/page-render.test.ts does).
const WEB_ENTRY = "../../../web/src/entry-server.tsx";
const webRenderer = (await import(/* @vite-ignore */ WEB_ENTRY)) as RendererModule;
const TEMPLATE =
  '<!doctype html><html><head><title>Unheard</title></head><body><div id="root"></div>' +
  '<script type="module" src="/assets/index.js"></script></body></html>';

/** The web app's renderer, counting the pages it renders. */
function countingRenderer(): { module: RendererModule; renders: () => number } {
  let renders = 0;
  return {
    renders: () => renders,
    module: {
      createPageRenderer() {
        const render = webRenderer.createPageRenderer();
        return (url, transport) => {
          renders++;
          return render(url, transport);
        };
      },
    },
  };
}

/** The kit a row prepares its attack with, on one app. */
function createKit(ctx: TestContext, dialect: string, port: () => number, renders: () => number): AbuseKit {
  let counter = 0;
  const unique = (prefix: string) => `${prefix} ${dialect} ${++counter}`;

  async function artist(): Promise<string> {
    const id = newId();
    const name = unique("Abuse Artist");
    const now = nowIso();
    await ctx.database.db
      .insertInto("user")
      .values({
        id,
        name,
        email: `artist-${id.toLowerCase()}@placeholder.unheard.invalid`,
        email_verified: false,
        created_at: now,
        updated_at: now,
        username: name,
        username_key: nameKey(name),
        is_artist: true,
        is_placeholder: true,
      })
      .execute();
    return id;
  }

  const kit: AbuseKit = {
    ctx,
    async member() {
      const email = `abuse-${dialect}-${newId().toLowerCase()}@example.com`;
      return { ...(await member(ctx, email)), email, password: PASSWORD };
    },
    async heldAccount() {
      const email = `abuse-held-${dialect}-${newId().toLowerCase()}@example.com`;
      const cookie = await signUp(ctx, email, PASSWORD);
      const row = await ctx.database.db
        .selectFrom("user")
        .select("id")
        .where("email", "=", email)
        .executeTakeFirstOrThrow();
      return { cookie, id: row.id, email, password: PASSWORD };
    },
    async song(opts = {}) {
      const owner = opts.owner ?? (await kit.member());
      const id = newId();
      const title = unique("Abuse Song");
      const now = nowIso();
      await ctx.database.db
        .insertInto("song")
        .values({
          id,
          title,
          title_key: nameKey(title),
          genre: "Pop",
          release_date: null,
          soundcloud_url: null,
          submitted_by: owner.id,
          is_hidden: Boolean(opts.hidden),
          status: opts.verified ? "verified" : "pending",
          verified_at: opts.verified ? now : null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const credited = await artist();
      await ctx.database.db
        .insertInto("song_artist")
        .values({ song_id: id, artist_id: credited, position: 0 })
        .execute();
      // Counted as songs.repo's setArtists counts a credit: expectConsistent holds the count to the rows.
      await ctx.database.db.updateTable("user").set({ credit_count: 1 }).where("id", "=", credited).execute();
      return id;
    },
    artist,
    unique,
    async usernameOf(id) {
      const row = await ctx.database.db
        .selectFrom("user")
        .select("username")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      return row.username;
    },
    // Documentation addresses (RFC 5737): nothing is sent anywhere, inject only reports them as the client's.
    clientAddress: () => `203.0.113.${(++counter % 250) + 1}`,
    async count(table, column, value) {
      const { rows } = await sql<{ n: number | string }>`
        select count(*) as n from ${sql.table(table)} where ${sql.ref(column)} = ${value}`.execute(ctx.database.db);
      return Number(rows[0]?.n ?? 0);
    },
    async as(user, method, url, payload, from) {
      const res = await ctx.app.inject({
        method: method as "GET",
        url,
        headers: user ? { cookie: user.cookie } : {},
        ...(payload !== undefined ? { payload: payload as object } : {}),
        ...(from ? { remoteAddress: from } : {}),
      });
      return { statusCode: res.statusCode, body: res.body };
    },
    async upload(user, fields, seed) {
      const res = await upload(
        ctx,
        user.cookie,
        { title: fields.title, artists: fields.artists ? [fields.artists] : undefined },
        { name: "song.wav", data: wavFile(2, seed) },
      );
      return { statusCode: res.statusCode, body: res.body };
    },
    // A stream never ends: read its status (and a refusal's body) over a real connection, then keep or drop it.
    stream(user) {
      return new Promise((resolve, reject) => {
        const req = http.get(
          { host: "127.0.0.1", port: port(), path: "/api/events", headers: { cookie: user.cookie } },
          (res) => {
            const close = () => req.destroy();
            if (res.statusCode === 200) return resolve({ statusCode: 200, body: "", close });
            let body = "";
            res.on("data", (c: Buffer) => {
              body += c.toString();
            });
            res.on("end", () => resolve({ statusCode: res.statusCode ?? 0, body, close }));
          },
        );
        req.on("error", reject);
      });
    },
    mails: (email) => outboxFor(ctx.dataDir, email).length,
    renders,
  };
  return kit;
}

type Mode = { name: string; run(send: (i: number) => Promise<AbuseAnswer>, n: number): Promise<AbuseAnswer[]> };
const MODES: Mode[] = [
  {
    name: "one after another",
    async run(send, n) {
      const out: AbuseAnswer[] = [];
      for (let i = 0; i < n; i++) out.push(await send(i));
      return out;
    },
  },
  { name: "all at once", run: (send, n) => Promise.all(Array.from({ length: n }, (_, i) => send(i))) },
];

/** The rows that need the same settings (and pages, or none) share one app. */
function groupByEnv(rows: AbuseCase[]): AbuseCase[][] {
  const groups = new Map<string, AbuseCase[]>();
  for (const row of rows) {
    const key = JSON.stringify([row.env ?? {}, Boolean(row.pages)]);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()];
}

describeEachDialect("abuse limits", (dialect) => {
  for (const group of groupByEnv(ABUSE_MATRIX)) {
    const pages = Boolean(group[0]?.pages);
    describe(`settings ${JSON.stringify(group[0]?.env ?? {})}${pages ? " with pages" : ""}`, () => {
      const counted = countingRenderer();
      const web: Record<string, string> = pages ? { WEB_DIST: useWebDist({ "index.html": TEMPLATE }) } : {};
      const ctx = useTestApp(dialect, {
        env: { ...SUITE_ENV, ...web, ...group[0]?.env },
        ...(pages ? { renderer: counted.module } : {}),
      });
      let port = 0;
      const kit = createKit(ctx, dialect, () => port, counted.renders);
      const streams = group.some((row) => row.action.includes("stream"));
      beforeAll(async () => {
        if (!streams) return;
        await ctx.app.listen({ host: "127.0.0.1", port: 0 });
        port = (ctx.app.server.address() as AddressInfo).port;
      });

      for (const row of group) {
        describe(`${row.action}: ${row.limit}`, () => {
          for (const mode of MODES) {
            it(mode.name, async () => {
              const attack = await row.prepare(kit);
              try {
                const tables = await tableNames(ctx, UNCOMPARED);
                const before = await snapshotTables(ctx, tables);
                const answers = await mode.run((i) => attack.send(i), row.attempts);
                const statuses = JSON.stringify(answers.map((a) => a.statusCode));
                // A page answered by a redirect to its canonical URL is answered.
                const ok = (a: AbuseAnswer) => a.statusCode < (row.pages ? 400 : 300);
                expect(answers.filter(ok).length, statuses).toBe(row.succeed);
                if (mode.name === "one after another")
                  expect(answers.slice(0, row.succeed).every(ok), statuses).toBe(true);
                const refusals = Array.isArray(row.refusal) ? row.refusal : [row.refusal];
                for (const a of answers.filter((x) => x.statusCode >= (row.pages ? 400 : 300))) {
                  expect(refusals, a.body).toContain(a.statusCode);
                  // A page is refused with a page that says why; the API with its error body.
                  if (row.pages) expect(a.body).toContain("Too many pages were asked for from your address");
                  else expect(JSON.parse(a.body).error.message, a.body).toEqual(expect.any(String));
                }
                expect(await attack.made()).toBe(row.rows);
                await attack.after?.(answers);
                const changed = changedTables(before, await snapshotTables(ctx, tables));
                expect(changed.filter((t) => !row.writes.includes(t))).toEqual([]);
                await expectConsistent(ctx);
              } finally {
                await attack.release?.();
              }
            });
          }
        });
      }
    });
  }
});
