import { MESSAGES } from "@unheard/shared";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";
import { getMe, member, patchMe, type User, upload, verify, wavFile } from "./test/fixtures.js";
import { createTestApp, describeEachDialect, type TestContext, useTestApp } from "./test/harness.js";

/** A one-second upload of its own audio by the holder of `cookie`. */
const uploadOne = (ctx: TestContext, cookie: string, title: string, artist: string) =>
  upload(ctx, cookie, { title, artists: [artist] }, { name: "song.wav", data: wavFile(1, title) });

// Issue 15, item 3 (API side): cross-site requests, GET never writes, security headers, server-side redirects,
// injection strings in every text parameter, allowlisted sort and filter values. app.test.ts already checks
// one foreign Origin on logout and the nosniff/default-src headers; this goes further.

/** Every row of every table, as sorted JSON lines per table: compare two to see whether anything was written. */
async function snapshot(ctx: TestContext): Promise<Record<string, string[]>> {
  const { db } = ctx.database;
  const tables =
    ctx.database.dialect === "postgres"
      ? (
          await sql<{
            name: string;
          }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db)
        ).rows
      : (
          await sql<{
            name: string;
          }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
        ).rows;
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    out[name] = rows.map((r) => JSON.stringify(r)).sort();
  }
  return out;
}

/** The GET routes of the API, from its OpenAPI document (every route but the document itself). */
function getRoutes(ctx: TestContext): string[] {
  const paths = (ctx.app.swagger() as { paths: Record<string, Record<string, unknown>> }).paths;
  return Object.entries(paths)
    .filter(([, methods]) => "get" in methods)
    .map(([p]) => p);
}

const INJECTIONS = [
  "' OR 1=1 --",
  "'; DROP TABLE song; --",
  '" OR ""="',
  "1; SELECT pg_sleep(1)",
  "') OR ('a'='a",
  "x' UNION SELECT email, password FROM account --",
  "%' AND 1=0 UNION SELECT NULL --",
  '\\\'; DELETE FROM "user"; --',
];

describeEachDialect("cross-site requests", (dialect) => {
  const ctx = useTestApp(dialect);
  let m: User;
  beforeAll(async () => {
    m = await member(ctx, "csrf@example.com");
    // New accounts get a neutral handle (issue 24): name this one, so a refused rename shows.
    expect((await patchMe(ctx, m.cookie, { username: "csrf-member" })).statusCode).toBe(200);
  });

  const rename = (username: string, headers: Record<string, string>) =>
    ctx.app.inject({
      method: "PATCH",
      url: "/api/me",
      headers: { cookie: m.cookie, ...headers },
      payload: { username },
    });

  it("refuses writes whose Origin is another site, and changes nothing", async () => {
    for (const origin of [
      "https://evil.example",
      "http://localhost:3000.evil.example",
      "http://localhost:3001",
      "https://localhost:3000",
      "null",
    ]) {
      const res = await rename("stolen", { origin });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json().error, origin).toEqual({ code: "forbidden", message: MESSAGES.forbiddenOrigin });
    }
    // Every method that writes, on a route of each kind.
    const writes: [string, string, object?][] = [
      ["POST", "/api/auth/logout", {}],
      ["PUT", "/api/songs/x/favorite"],
      ["DELETE", "/api/songs/x/favorite"],
      ["POST", "/api/songs/x/vote", { vote: "up" }],
      ["PUT", "/api/me/notification-settings", {}],
    ];
    for (const [method, url, payload] of writes) {
      const res = await ctx.app.inject({
        method: method as "POST",
        url,
        headers: { cookie: m.cookie, origin: "https://evil.example" },
        ...(payload ? { payload } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await getMe(ctx, m.cookie)).json().username).toBe("csrf-member");
  });

  it("refuses writes a browser marks Sec-Fetch-Site: cross-site, even without an Origin", async () => {
    const res = await rename("stolen", { "sec-fetch-site": "cross-site" });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe("forbidden");
    expect((await getMe(ctx, m.cookie)).json().username).toBe("csrf-member");
    // The site's own pages are let through.
    const own = await rename("csrf-own", { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" });
    expect(own.statusCode).toBe(200);
    // Reading stays open to links from anywhere.
    const read = await ctx.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "sec-fetch-site": "cross-site" },
    });
    expect(read.statusCode).toBe(200);
  });

  it("never writes on GET: every GET route leaves the database as it was", async () => {
    const admin = await member(ctx, "get-admin@example.com", "super_admin");
    const uploaded = await uploadOne(ctx, m.cookie, "Get Safe", "Get Artist");
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const song = uploaded.json() as { id: string; artists: { id: string }[] };
    const ids: Record<string, string> = {
      songs: song.id,
      artists: song.artists[0]?.id ?? "",
      users: m.id,
    };
    const routes = getRoutes(ctx);
    // The feature list the test walks must not silently shrink.
    expect(routes.length).toBeGreaterThan(20);
    const before = await snapshot(ctx);
    const called: string[] = [];
    for (const route of routes) {
      // The SSE stream never ends; the verification link is the one GET that acts (it is what the e-mail holds,
      // guarded by its signed token, and checked in auth.test.ts).
      if (route === "/api/events" || route === "/api/auth/verify-email") continue;
      const url = route.replace(/\{(\w+)\}/g, (_, name: string) => {
        const kind = /\/api\/(?:admin\/)?(\w+)\//.exec(route)?.[1] ?? "";
        return name === "id" ? (ids[kind] ?? song.id) : "x";
      });
      const query = route === "/api/search" ? "?q=get" : "";
      for (const cookie of [undefined, m.cookie, admin.cookie]) {
        const res = await ctx.app.inject({ method: "GET", url: `${url}${query}`, headers: cookie ? { cookie } : {} });
        expect(res.statusCode, `GET ${url}`).toBeLessThan(500);
      }
      called.push(url);
    }
    expect(called).toEqual(
      expect.arrayContaining(["/api/search", `/api/songs/${song.id}`, `/api/songs/${song.id}/audio`]),
    );
    expect(await snapshot(ctx)).toEqual(before);
    // The snapshot does see writes: one favourite later it differs.
    await ctx.app.inject({ method: "PUT", url: `/api/songs/${song.id}/favorite`, headers: { cookie: m.cookie } });
    expect(await snapshot(ctx)).not.toEqual(before);
  });
});

describe("security headers", () => {
  const dialect = "sqlite" as const;
  let http: TestContext;
  let https: TestContext;
  beforeAll(async () => {
    http = await createTestApp(dialect);
    https = await createTestApp(dialect, { env: { PUBLIC_URL: "https://unheard.example" } });
    return async () => {
      await http.close();
      await https.close();
    };
  });

  /** A CSP header as directive name -> its sources. */
  function directives(csp: string): Record<string, string[]> {
    return Object.fromEntries(
      csp
        .split(";")
        .map((d) => d.trim().split(/\s+/))
        .filter((parts) => parts[0])
        .map(([name = "", ...values]) => [name, values]),
    );
  }

  it("sends a script policy without inline scripts, framing rules, nosniff and a referrer policy", async () => {
    for (const url of ["/", "/api/health", "/api/songs", "/login"]) {
      const res = await http.app.inject({ method: "GET", url });
      const csp = directives(String(res.headers["content-security-policy"]));
      const scripts = csp["script-src"] ?? csp["default-src"] ?? [];
      expect(scripts, url).not.toContain("'unsafe-inline'");
      expect(scripts, url).not.toContain("'unsafe-eval'");
      expect(csp["frame-ancestors"], url).toEqual(expect.arrayContaining([expect.stringMatching(/^'(self|none)'$/)]));
      expect(csp["object-src"], url).toEqual(["'none'"]);
      expect(res.headers["x-content-type-options"], url).toBe("nosniff");
      expect(res.headers["x-frame-options"], url).toMatch(/^(SAMEORIGIN|DENY)$/);
      expect(res.headers["referrer-policy"], url).toMatch(
        /^(no-referrer|same-origin|strict-origin(-when-cross-origin)?)$/,
      );
    }
  });

  it("sends HSTS only when PUBLIC_URL is https", async () => {
    const plain = await http.app.inject({ method: "GET", url: "/api/health" });
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
    const secure = await https.app.inject({ method: "GET", url: "/api/health" });
    expect(String(secure.headers["strict-transport-security"])).toMatch(/max-age=\d{7,}/);
    expect(String(secure.headers["content-security-policy"])).toContain("upgrade-insecure-requests");
  });

  it("reads the https-ness from PUBLIC_URL, not from the request", async () => {
    const forged = await http.app.inject({
      method: "GET",
      url: "/api/health",
      headers: { "x-forwarded-proto": "https", host: "unheard.example" },
    });
    expect(forged.headers["strict-transport-security"]).toBeUndefined();
    expect(loadConfig({ PUBLIC_URL: "https://unheard.example", DATA_DIR: http.dataDir }).publicUrl).toBe(
      "https://unheard.example",
    );
  });
});

describeEachDialect("redirects stay on the site", (dialect) => {
  const ctx = useTestApp(dialect);
  const EVIL = [
    "//evil.com",
    "/\\evil.com",
    "https:evil.com",
    "https://evil.com",
    "/%2F%2Fevil.com",
    "%2F%2Fevil.com",
    "/%0d%0aLocation:%20https://evil.com",
    "\\\\evil.com",
  ];

  it("sends the verification link to fixed internal pages, whatever the query says", async () => {
    for (const evil of EVIL) {
      for (const param of ["callbackURL", "next", "redirect", "redirectTo", "errorCallbackURL"]) {
        const res = await ctx.app.inject({
          method: "GET",
          url: `/api/auth/verify-email?token=forged&${param}=${encodeURIComponent(evil)}`,
        });
        expect(res.statusCode).toBe(302);
        expect(res.headers.location, `${param}=${evil}`).toBe("/login?verify=failed");
      }
    }
  });

  it("answers login with JSON and no Location, even when asked for a callback", async () => {
    await member(ctx, "redir@example.com");
    const res = await ctx.app.inject({
      method: "POST",
      url: "/api/auth/login",
      payload: { email: "redir@example.com", password: "secret123", callbackURL: "https://evil.com" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.body).not.toContain("evil.com");
  });
});

describeEachDialect("injection strings in text parameters", (dialect) => {
  const ctx = useTestApp(dialect);
  let author: User;
  let admin: User;
  let songId: string;
  let artistId: string;
  beforeAll(async () => {
    author = await member(ctx, "inj-author@example.com");
    admin = await member(ctx, "inj-admin@example.com", "super_admin");
    const res = await uploadOne(ctx, author.cookie, "Injected", "Inj Artist");
    expect(res.statusCode, res.body).toBe(201);
    songId = res.json().id;
    artistId = res.json().artists[0].id;
    // Verified, so that visitors' searches can find it.
    await verify(ctx, songId);
  });

  /** Counts that no answer may change: the tables an injection would empty or drop. */
  async function counts() {
    const { db } = ctx.database;
    const n = async (table: "song" | "user" | "account" | "song_artist") =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    // Artists are rows of `user` without an account.
    return {
      song: await n("song"),
      user: await n("user"),
      account: await n("account"),
      credits: await n("song_artist"),
    };
  }

  /** A normal answer: success or a 4xx with the usual error body, never a server error or a leaked SQL message. */
  function expectNormal(res: { statusCode: number; body: string }, what: string) {
    expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
    if (res.statusCode >= 400) {
      const error = JSON.parse(res.body).error;
      expect(error.code, what).not.toBe("internal");
      expect(typeof error.message, what).toBe("string");
    }
    expect(res.body.toLowerCase(), what).not.toMatch(/syntax error|sqlite_error|sqlstate|near "|unterminated/);
  }

  it("treats search, filters and ids as data", async () => {
    const before = await counts();
    const get = (url: string, cookie?: string) =>
      ctx.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} });
    // The song is findable, so not finding it below means something.
    const found = (await get("/api/search?q=Injected")).json().songs.map((x: { id: string }) => x.id);
    expect(found).toContain(songId);
    for (const s of INJECTIONS) {
      const q = encodeURIComponent(s);
      const search = await get(`/api/search?q=${q}`);
      expectNormal(search, `search ${s}`);
      expect(search.statusCode, s).toBe(200);
      // Nothing matches by accident of the injected OR.
      expect(search.json().songs, s).not.toEqual(expect.arrayContaining([expect.objectContaining({ id: songId })]));
      const users = await get(`/api/admin/users?q=${q}`, admin.cookie);
      expectNormal(users, `admin users ${s}`);
      expect(users.statusCode).toBe(200);
      for (const path of [
        `/api/songs/${q}`,
        `/api/songs/${q}/history`,
        `/api/artists/${q}`,
        `/api/artists/${q}/songs`,
        `/api/songs?cursor=${q}`,
        `/api/search?q=x&cursor=${q}`,
        `/api/me/favorites?cursor=${q}`,
      ]) {
        expectNormal(await get(path, author.cookie), path);
      }
    }
    expect(await counts()).toEqual(before);
  });

  it("refuses sort and filter values that are not on the list with 400", async () => {
    for (const param of ["feed", "genre", "release", "next7", "limit"]) {
      for (const value of ["title; DROP TABLE song", "created_at desc", "' OR 1=1 --", "bogus"]) {
        const res = await ctx.app.inject({ method: "GET", url: `/api/songs?${param}=${encodeURIComponent(value)}` });
        expect(res.statusCode, `${param}=${value}`).toBe(400);
        expect(res.json().error.code).toBe("validation_failed");
      }
    }
    // Known values work.
    const ok = await ctx.app.inject({ method: "GET", url: "/api/songs?feed=trending&genre=Pop&release=all&limit=5" });
    expect(ok.statusCode).toBe(200);
  });

  it("stores injection strings in every text field as they were typed", async () => {
    const before = await counts();
    const send = (method: "POST" | "PATCH" | "PUT", url: string, cookie: string, payload: object) =>
      ctx.app.inject({ method, url, headers: { cookie }, payload });
    for (const [i, s] of INJECTIONS.entries()) {
      const title = `${s} ${i}`;
      const up = await upload(
        ctx,
        author.cookie,
        { title, artists: [`${s} artist`] },
        { name: "x.wav", data: wavFile(1, `inj-${i}`) },
      );
      expectNormal(up, `upload ${s}`);
      expect(up.statusCode, up.body).toBe(201);
      expect(up.json().title).toBe(title);
      expect(up.json().artists.map((a: { name: string }) => a.name)).toEqual([`${s} artist`]);

      const edit = await send("PATCH", `/api/songs/${songId}`, admin.cookie, {
        title: `Edited ${s}`,
        artists: ["Inj Artist", s],
        genre: "Pop",
        comment: s,
      });
      expectNormal(edit, `edit ${s}`);
      expect(edit.statusCode).toBe(200);

      const bio = await send("PATCH", `/api/artists/${artistId}`, admin.cookie, { bio: s });
      expectNormal(bio, `bio ${s}`);
      expect(bio.statusCode).toBe(200);
      expect(bio.json().bio).toBe(s.trim());

      const report = await send("POST", `/api/songs/${up.json().id}/reports`, admin.cookie, {
        reason: "other",
        details: s,
      });
      expectNormal(report, `report ${s}`);
      expect(report.statusCode).toBe(201);

      const suggestion = await send("POST", `/api/songs/${up.json().id}/edit-suggestions`, admin.cookie, {
        title: s,
        artists: [s],
        genre: "Pop",
        reason: s,
      });
      expectNormal(suggestion, `suggestion ${s}`);

      expectNormal(await patchMe(ctx, author.cookie, { username: s }), `username ${s}`);
      const waitlist = await send("POST", "/api/waitlist", author.cookie, { name: s, email: `w${i}@example.com` });
      expectNormal(waitlist, `waitlist ${s}`);
      expectNormal(
        await ctx.app.inject({ method: "POST", url: "/api/auth/login", payload: { email: s, password: s } }),
        `login ${s}`,
      );
      expectNormal(
        await ctx.app.inject({
          method: "POST",
          url: "/api/auth/login",
          payload: { email: "inj-author@example.com", password: s },
        }),
        `password ${s}`,
      );
      expectNormal(
        await ctx.app.inject({ method: "POST", url: "/api/auth/forgot-password", payload: { email: s } }),
        `forgot ${s}`,
      );
    }
    const after = await counts();
    // Exactly the uploads were added (with their new artists); no account appeared or vanished.
    expect(after).toMatchObject({ account: before.account, song: before.song + INJECTIONS.length });
    expect(after.user).toBeGreaterThanOrEqual(before.user + INJECTIONS.length);
    // The stored text is the typed text.
    const details = await ctx.database.db.selectFrom("report").select("details").execute();
    expect(details.map((d) => d.details).sort()).toEqual(INJECTIONS.map((s) => s.trim()).sort());
    const admins = await ctx.database.db
      .selectFrom("user")
      .select("email")
      .where("role", "in", ["admin", "super_admin"])
      .execute();
    expect(admins).toEqual([{ email: "inj-admin@example.com" }]);
  });
});
