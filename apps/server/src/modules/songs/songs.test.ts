import { audioUnreadableMessage, MESSAGES } from "@unheard/shared";
import { sql } from "kysely";
import { beforeAll, expect, it } from "vitest";
import {
  dataFiles,
  fetchAudio,
  member,
  mp3File,
  storedNumber,
  upload,
  useMembers,
  verify,
  wavFile,
} from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";

const files = (ctx: TestContext, sub: string) => dataFiles(ctx.dataDir, sub);

/** The songs credited to the artist named `username` (user.credit_count). */
const creditCount = (ctx: TestContext, username: string) =>
  storedNumber(ctx, "user", "credit_count", ["username", username]);

/** Like or unlike a song as the holder of `cookie`. */
const favorite = (ctx: TestContext, method: "PUT" | "DELETE", songId: string, cookie: string) =>
  ctx.app.inject({ method, url: `/api/songs/${songId}/favorite`, headers: { cookie } });

describeEachDialect("songs: upload", (dialect) => {
  const ctx = useTestApp(dialect, { env: { MAX_UPLOAD_MB: "0.2" } });
  const { alice } = useMembers(ctx, { alice: "alice-up@example.com" });

  it("stores a real audio file, decodes it and creates placeholder artists", async () => {
    const res = await upload(ctx, alice.cookie, {
      title: "First Light",
      artists: ["Nova Test", "  ", "Kid Test"],
      genre: "Electronic",
      releaseDate: "2031-05-01",
    });
    expect(res.statusCode).toBe(201);
    const song = res.json();
    expect(song).toMatchObject({
      title: "First Light",
      artists: [{ name: "Nova Test" }, { name: "Kid Test" }],
      genre: "Electronic",
      releaseDate: "2031-05-01",
      status: "pending",
      version: 1,
      upvotes: 0,
      favoriteCount: 0,
      isOwner: true,
      canEdit: true,
      canDelete: false,
    });
    expect(song.audio.mime).toBe("audio/wav");
    expect(song.audio.durationSec).toBeCloseTo(2, 1);
    expect(song.audio.sampleRate).toBe(22050);
    expect(song.audio.stats.max).toBeGreaterThan(0.1);
    expect(song.audio.stats.min).toBeLessThan(-0.1);
    expect(song.audio.stats.silenceRatio).toBeGreaterThan(0);
    expect(song.audio.stats.silenceRatio).toBeLessThan(0.5);
    expect(files(ctx, "audio")).toHaveLength(1);
    const artists = await ctx.database.db
      .selectFrom("user")
      .select(["username", "bio", "is_placeholder", "credit_count", "email"])
      .where("username", "in", ["Nova Test", "Kid Test"])
      .orderBy("username")
      .execute();
    expect(artists.map((a) => [a.username, a.bio, Boolean(a.is_placeholder), Number(a.credit_count)])).toEqual([
      ["Kid Test", "Music by Kid Test", true, 1],
      ["Nova Test", "Music by Nova Test", true, 1],
    ]);
    expect(artists[0]?.email).toMatch(/@placeholder\.unheard\.invalid$/);
  });

  it("reuses an artist regardless of case and spacing, counting each credit", async () => {
    const res = await upload(
      ctx,
      alice.cookie,
      { title: "Second Light", artists: [" nova   TEST "] },
      { name: "a.mp3", data: mp3File(2) },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().artists).toEqual([{ id: expect.any(String), name: "Nova Test" }]);
    expect(res.json().audio.mime).toBe("audio/mpeg");
    expect(await creditCount(ctx, "Nova Test")).toBe(2);
  });

  const refusals: [
    string,
    () => Promise<{ statusCode: number; json(): { error: { message: string } } }>,
    number,
    string,
  ][] = [
    ["no title", () => upload(ctx, alice.cookie, { title: "  ", artists: ["A"] }), 400, MESSAGES.uploadRequiredFields],
    [
      "no artist",
      () => upload(ctx, alice.cookie, { title: "T", artists: ["", " "] }),
      400,
      MESSAGES.uploadRequiredFields,
    ],
    [
      "no file",
      () => upload(ctx, alice.cookie, { title: "T", artists: ["A"] }, null),
      400,
      MESSAGES.uploadAudioRequired,
    ],
    [
      "bad genre",
      () => upload(ctx, alice.cookie, { title: "T", artists: ["A"], genre: "Polka" }),
      400,
      MESSAGES.invalidGenre,
    ],
    [
      "bad date",
      () => upload(ctx, alice.cookie, { title: "T", artists: ["A"], releaseDate: "2024-02-30" }),
      400,
      MESSAGES.invalidReleaseDate,
    ],
    [
      "foreign link",
      () => upload(ctx, alice.cookie, { title: "T", artists: ["A"], soundcloudUrl: "https://evil.example/track" }),
      400,
      MESSAGES.invalidSoundcloudUrl,
    ],
    [
      // Issue 38: a file named like audio is told it could not be read as audio, not to upload "an MP3".
      "text named .mp3",
      () =>
        upload(
          ctx,
          alice.cookie,
          { title: "T", artists: ["A"] },
          { name: "song.mp3", data: Buffer.from("just text, not audio at all ".repeat(50)), type: "audio/mpeg" },
        ),
      415,
      audioUnreadableMessage("mp3"),
    ],
    [
      "a document",
      () =>
        upload(
          ctx,
          alice.cookie,
          { title: "T", artists: ["A"] },
          { name: "lyrics.docx", data: Buffer.from("PK not audio at all ".repeat(50)), type: "application/msword" },
        ),
      415,
      MESSAGES.audioUnsupported,
    ],
    [
      "undecodable",
      () => {
        // An MP3 frame header followed by garbage: sniffed as MP3, but nothing decodes.
        const junk = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x00]), Buffer.alloc(4000, 7)]);
        return upload(ctx, alice.cookie, { title: "T", artists: ["A"] }, { name: "x.mp3", data: junk });
      },
      400,
      MESSAGES.audioUndecodable,
    ],
    [
      "oversize",
      () => upload(ctx, alice.cookie, { title: "T", artists: ["A"] }, { name: "big.wav", data: wavFile(6) }),
      413,
      MESSAGES.audioTooLarge,
    ],
  ];
  for (const [name, call, status, message] of refusals) {
    it(`refuses an upload with ${name} and leaves nothing behind`, async () => {
      const songCount = async () =>
        Number(
          (await ctx.database.db.selectFrom("song").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow()).n,
        );
      const before = await songCount();
      const audioBefore = files(ctx, "audio").length;
      const res = await call();
      expect(res.statusCode).toBe(status);
      expect(res.json().error.message).toContain(message);
      expect(await songCount()).toBe(before);
      expect(files(ctx, "audio")).toHaveLength(audioBefore);
      expect(files(ctx, "tmp")).toEqual([]);
    });
  }

  it("refuses a duplicate title with any artist in common, case-insensitively", async () => {
    expect(
      (await upload(ctx, alice.cookie, { title: "Twin Song", artists: ["Solo One", "Feat Two"] })).statusCode,
    ).toBe(201);
    const dup = await upload(ctx, alice.cookie, { title: "twin SONG", artists: ["Other", "feat two"] });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error.message).toBe(MESSAGES.duplicateSong);
    expect((await upload(ctx, alice.cookie, { title: "Twin Song", artists: ["Someone Else"] })).statusCode).toBe(201);
    expect(files(ctx, "tmp")).toEqual([]);
  });

  it("lets only one of several concurrent identical uploads through", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => upload(ctx, alice.cookie, { title: "Race Song", artists: ["Racer"] })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409, 409, 409, 409]);
    const rows = await ctx.database.db.selectFrom("song").select("id").where("title_key", "=", "race song").execute();
    expect(rows).toHaveLength(1);
    expect(await creditCount(ctx, "Racer")).toBe(1);
  });

  it("requires a signed-in member", async () => {
    expect((await upload(ctx, undefined, { title: "T", artists: ["A"] })).statusCode).toBe(401);
    const held = await (async () => {
      const { signUp } = await import("../../test/harness.js");
      return signUp(ctx, "held@example.com");
    })();
    const res = await upload(ctx, held, { title: "Held Song", artists: ["A"] });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(MESSAGES.waitlisted);
  });
});

describeEachDialect("songs: audio, detail, edit, delete", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, other } = useMembers(ctx, { owner: "owner@example.com", other: "other@example.com" });
  let songId: string;
  let audioUrl: string;
  beforeAll(async () => {
    const res = await upload(
      ctx,
      owner.cookie,
      { title: "Streamed", artists: ["Streamer"] },
      { name: "s.wav", data: wavFile(3, "stream") },
    );
    songId = res.json().id;
    audioUrl = res.json().audio.url;
  });
  const edit = (cookie: string, payload: object) =>
    ctx.app.inject({ method: "PATCH", url: `/api/songs/${songId}`, headers: { cookie }, payload });
  const remove = (cookie?: string) =>
    ctx.app.inject({ method: "DELETE", url: `/api/songs/${songId}`, headers: cookie ? { cookie } : {} });

  it("streams audio with ranges, type, nosniff and content-keyed caching", async () => {
    // Pending: for members only, kept in no shared cache (issue 24); a visitor gets what a missing song gives.
    expect((await fetchAudio(ctx, audioUrl)).statusCode).toBe(404);
    const pending = await fetchAudio(ctx, audioUrl, { cookie: other.cookie });
    expect(pending.statusCode).toBe(200);
    expect(pending.headers["cache-control"]).toBe("private, max-age=300");
    await verify(ctx, songId);
    const full = await fetchAudio(ctx, audioUrl);
    expect(full.statusCode).toBe(200);
    expect(full.headers["content-type"]).toBe("audio/wav");
    expect(full.headers["x-content-type-options"]).toBe("nosniff");
    expect(full.headers["accept-ranges"]).toBe("bytes");
    expect(full.headers["cache-control"]).toContain("immutable");
    const size = full.rawPayload.length;
    expect(size).toBe(Number(full.headers["content-length"]));
    const part = await fetchAudio(ctx, audioUrl, { range: "bytes=100-199" });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-199/${size}`);
    expect(part.rawPayload).toEqual(full.rawPayload.subarray(100, 200));
    const tail = await fetchAudio(ctx, audioUrl, { range: "bytes=-10" });
    expect(tail.rawPayload).toEqual(full.rawPayload.subarray(size - 10));
    const open = await fetchAudio(ctx, audioUrl, { range: `bytes=${size - 5}-` });
    expect(open.statusCode).toBe(206);
    expect(open.rawPayload).toHaveLength(5);
    const bad = await fetchAudio(ctx, audioUrl, { range: `bytes=${size + 10}-` });
    expect(bad.statusCode).toBe(416);
    const cached = await fetchAudio(ctx, audioUrl, { "if-none-match": String(full.headers.etag) });
    expect(cached.statusCode).toBe(304);
    // The edits below are of a pending song (a verified one's title and artists change only after review).
    await ctx.database.db
      .updateTable("song")
      .set({ status: "pending", verified_at: null })
      .where("id", "=", songId)
      .execute();
  });

  it("answers unknown songs with 'Song not found'", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/songs/nope" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe(MESSAGES.songNotFound);
  });

  it("applies the owner's edit with a version bump and a history entry", async () => {
    const blankComment = { title: "Streamed (v2)", artists: ["Streamer"], genre: "Rock", comment: " " };
    const noComment = await edit(owner.cookie, blankComment);
    expect(noComment.statusCode).toBe(400);
    expect(noComment.json().error.message).toBe(MESSAGES.editCommentRequired);
    const res = await edit(owner.cookie, {
      title: "Streamed (v2)",
      artists: ["Streamer", "Guest"],
      genre: "Rock",
      releaseDate: "2030-01-02",
      comment: "Right title",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      applied: true,
      song: { title: "Streamed (v2)", version: 2, genre: "Rock", lastEditedBy: { id: owner.id } },
    });
    const history = (
      await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}/history`, headers: { cookie: other.cookie } })
    ).json();
    expect(history.items).toEqual([
      expect.objectContaining({
        version: 1,
        comment: "Right title",
        previous: expect.objectContaining({ title: "Streamed", artists: ["Streamer"], genre: "Pop" }),
      }),
    ]);
    expect(await creditCount(ctx, "Guest")).toBe(1);
  });

  it("refuses edits by others, and sends verified contributors' edits to review", async () => {
    const payload = { title: "Hijacked", artists: ["Streamer"], genre: "Pop", comment: "mine now" };
    const refused = await edit(other.cookie, payload);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(MESSAGES.editNoPermission);
    const contributor = await member(ctx, "vc@example.com", "verified_contributor");
    const review = await edit(contributor.cookie, payload);
    expect(review.statusCode).toBe(202);
    expect(review.json()).toMatchObject({ applied: false, message: MESSAGES.editSubmittedForReview });
    const song = (
      await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}`, headers: { cookie: other.cookie } })
    ).json();
    expect(song.title).toBe("Streamed (v2)");
    const suggestion = await ctx.database.db
      .selectFrom("edit_suggestion")
      .selectAll()
      .where("song_id", "=", songId)
      .executeTakeFirstOrThrow();
    expect(suggestion.status).toBe("pending");
    expect(JSON.parse(suggestion.suggested).title).toBe("Hijacked");
    const admin = await member(ctx, "adm-edit@example.com", "admin");
    const byAdmin = await edit(admin.cookie, { ...payload, title: "Admin Fixed" });
    expect(byAdmin.statusCode).toBe(200);
  });

  it("lets only a super admin delete, removing rows and the audio file", async () => {
    const admin = await member(ctx, "adm-del@example.com", "admin");
    expect((await remove(admin.cookie)).statusCode).toBe(403);
    expect((await remove()).statusCode).toBe(401);
    await favorite(ctx, "PUT", songId, other.cookie);
    const boss = await member(ctx, "boss-del@example.com", "super_admin");
    const res = await remove(boss.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(MESSAGES.songDeleted);
    expect((await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}` })).statusCode).toBe(404);
    expect(files(ctx, "audio")).toEqual([]);
    const left = await ctx.database.db.selectFrom("favorite").select("song_id").where("song_id", "=", songId).execute();
    expect(left).toEqual([]);
    expect(await creditCount(ctx, "Streamer")).toBe(0);
  });
});

describeEachDialect("songs: feeds, search, favourites", (dialect) => {
  const ctx = useTestApp(dialect);
  const { up, fan } = useMembers(ctx, { up: "uploader@example.com", fan: "fan@example.com" });
  const ids: Record<string, string> = {};
  const today = new Date();
  const day = (n: number) => new Date(today.getTime() + n * 864e5).toISOString().slice(0, 10);
  beforeAll(async () => {
    const songs: [string, string[], string, string | undefined][] = [
      ["Lucid Dreams Remix", ["Juice WRLD"], "Rap", undefined],
      ["Déjà Vu Tape", ["Beyoncé"], "Pop", day(3)],
      ["Night Drive", ["Synth Pilot"], "Electronic", day(20)],
      ["Old Gold", ["Retro Band"], "Rock", day(-30)],
      ["Night", ["Another Artist"], "Electronic", day(-1)],
      ["Pending Secret", ["Juice WRLD"], "Rap", undefined],
    ];
    for (const [title, artists, genre, releaseDate] of songs) {
      const res = await upload(ctx, up.cookie, { title, artists, genre, ...(releaseDate ? { releaseDate } : {}) });
      ids[title] = res.json().id;
    }
    await verify(
      ctx,
      ...Object.entries(ids)
        .filter(([t]) => t !== "Pending Secret")
        .map(([, id]) => id),
    );
  });

  const titles = (page: { items: { title: string }[] }) => page.items.map((s) => s.title);
  const get = async (url: string, cookie?: string) =>
    (await ctx.app.inject({ method: "GET", url, headers: cookie ? { cookie } : {} })).json();

  it("lists verified songs newest first and never pending ones", async () => {
    const page = await get("/api/songs?feed=newest");
    expect(titles(page)).toEqual(["Night", "Old Gold", "Night Drive", "Déjà Vu Tape", "Lucid Dreams Remix"]);
  });

  it("paginates with a cursor without repeats", async () => {
    const first = await get("/api/songs?feed=newest&limit=2");
    const second = await get(`/api/songs?feed=newest&limit=2&cursor=${first.nextCursor}`);
    const third = await get(`/api/songs?feed=newest&limit=2&cursor=${second.nextCursor}`);
    expect([...titles(first), ...titles(second), ...titles(third)]).toEqual(
      titles(await get("/api/songs?feed=newest")),
    );
    expect(third.nextCursor).toBeNull();
    expect((await ctx.app.inject({ method: "GET", url: "/api/songs?cursor=garbage" })).statusCode).toBe(400);
  });

  it("filters by genre, release state and the next 7 days", async () => {
    expect(titles(await get("/api/songs?genre=Electronic"))).toEqual(["Night", "Night Drive"]);
    expect(titles(await get("/api/songs?release=undated"))).toEqual(["Lucid Dreams Remix"]);
    expect(titles(await get("/api/songs?release=released"))).toEqual(["Night", "Old Gold"]);
    expect(titles(await get("/api/songs?release=all_unreleased"))).toEqual([
      "Night Drive",
      "Déjà Vu Tape",
      "Lucid Dreams Remix",
    ]);
    expect(titles(await get("/api/songs?release=dated")).sort()).toEqual([
      "Déjà Vu Tape",
      "Night",
      "Night Drive",
      "Old Gold",
    ]);
    expect(titles(await get("/api/songs?next7=true"))).toEqual(["Déjà Vu Tape"]);
    expect((await ctx.app.inject({ method: "GET", url: "/api/songs?genre=Polka" })).statusCode).toBe(400);
  });

  it("ranks trending by favourites of the last 7 days, then release date", async () => {
    const others = await Promise.all(["t1@example.com", "t2@example.com"].map((e) => member(ctx, e)));
    for (const u of others) await favorite(ctx, "PUT", ids["Old Gold"] ?? "", u.cookie);
    await favorite(ctx, "PUT", ids["Night Drive"] ?? "", others[0]?.cookie ?? "");
    await favorite(ctx, "PUT", ids["Déjà Vu Tape"] ?? "", others[1]?.cookie ?? "");
    // An old like does not count this week.
    await ctx.database.db
      .insertInto("favorite")
      .values({
        song_id: ids.Night ?? "",
        user_id: fan.id,
        created_at: new Date(Date.now() - 10 * 864e5).toISOString(),
      })
      .execute();
    expect(titles(await get("/api/songs?feed=trending"))).toEqual(["Old Gold", "Déjà Vu Tape", "Night Drive"]);
    await ctx.database.db.deleteFrom("favorite").where("user_id", "=", fan.id).execute();
  });

  it("finds songs by substring, without accents, and with small typos, best match first", async () => {
    const search = async (q: string) =>
      (await get(`/api/search?q=${encodeURIComponent(q)}`)).songs.map((s: { title: string }) => s.title);
    expect(await search("jucie wrld")).toEqual(["Lucid Dreams Remix"]);
    expect(await search("beyonce")).toEqual(["Déjà Vu Tape"]);
    expect(await search("DEJA")).toEqual(["Déjà Vu Tape"]);
    expect(await search("dreams")).toEqual(["Lucid Dreams Remix"]);
    // Exact title, then prefix.
    expect(await search("night")).toEqual(["Night", "Night Drive"]);
    expect(await search("nite drive")).toContain("Night Drive");
    expect(await search("zzzzqqq")).toEqual([]);
    expect(await search("secret")).toEqual([]);
    expect((await ctx.app.inject({ method: "GET", url: "/api/search?q=" })).statusCode).toBe(400);
  });

  it("toggles favourites idempotently, counting each user once", async () => {
    const id = ids["Lucid Dreams Remix"] ?? "";
    const put = () => favorite(ctx, "PUT", id, fan.cookie);
    const results = await Promise.all(Array.from({ length: 10 }, put));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect((await put()).json()).toEqual({ isFavorite: true, favoriteCount: 1 });
    const song = await get(`/api/songs/${id}`, fan.cookie);
    expect(song).toMatchObject({ isFavorite: true, favoriteCount: 1 });
    const favs = await get("/api/me/favorites", fan.cookie);
    expect(titles(favs)).toEqual(["Lucid Dreams Remix"]);
    const del = () => favorite(ctx, "DELETE", id, fan.cookie);
    await Promise.all([del(), del(), del()]);
    expect((await del()).json()).toEqual({ isFavorite: false, favoriteCount: 0 });
    const visitor = await ctx.app.inject({ method: "PUT", url: `/api/songs/${id}/favorite` });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json().error.message).toBe(MESSAGES.loginToFavorite);
    const counts = await sql<{
      n: number;
    }>`select count(*) as n from song s where s.favorite_count != (select count(*) from favorite f where f.song_id = s.id)`.execute(
      ctx.database.db,
    );
    expect(Number(counts.rows[0]?.n)).toBe(0);
  });

  it("keeps pending songs out of favourites", async () => {
    const pending = ids["Pending Secret"] ?? "";
    await favorite(ctx, "PUT", pending, fan.cookie);
    expect(titles(await get("/api/me/favorites", fan.cookie))).toEqual([]);
    expect((await ctx.app.inject({ method: "GET", url: "/api/me/favorites" })).statusCode).toBe(401);
  });

  it("offers the landing page's demo tracks: verified songs with audio, most liked first", async () => {
    const tracks = (await get("/api/landing/tracks")).items;
    expect(tracks.length).toBeGreaterThan(0);
    expect(tracks.length).toBeLessThanOrEqual(5);
    expect(tracks.every((t: { status: string; audio: unknown }) => t.status === "verified" && t.audio !== null)).toBe(
      true,
    );
    const counts = tracks.map((t: { favoriteCount: number }) => t.favoriteCount);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it("recommends up to 8 songs the user has not liked", async () => {
    await favorite(ctx, "PUT", ids["Night Drive"] ?? "", fan.cookie);
    const recs = await get("/api/songs/recommendations", fan.cookie);
    expect(recs.items.length).toBeGreaterThan(0);
    expect(recs.items.length).toBeLessThanOrEqual(8);
    const t = titles(recs);
    expect(t).not.toContain("Night Drive");
    expect(t).not.toContain("Pending Secret");
    expect(new Set(t).size).toBe(t.length);
  });

  it("answers the newest feed from an index, not a table scan", async () => {
    const { db } = ctx.database;
    const sqlText =
      "select id from song where status = 'verified' and is_hidden = ? order by created_at desc, id desc limit 24";
    if (dialect === "sqlite") {
      const plan = await sql.raw<{ detail: string }>(`explain query plan ${sqlText.replace("?", "0")}`).execute(db);
      const details = plan.rows.map((r) => r.detail).join(" | ");
      expect(details).toMatch(/USING (COVERING )?INDEX song_status/);
      expect(details).not.toMatch(/SCAN song(?! USING)/);
    } else {
      await db.transaction().execute(async (trx) => {
        // Tiny test tables make a scan cheapest; forbid it to prove an index serves the query.
        await sql`set local enable_seqscan = off`.execute(trx);
        const plan = await sql.raw<{ "QUERY PLAN": string }>(`explain ${sqlText.replace("?", "false")}`).execute(trx);
        const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
        expect(text).toMatch(/Index (Only )?Scan.*song_status/);
        expect(text).not.toMatch(/Seq Scan/);
      });
    }
  });
});
