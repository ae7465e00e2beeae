import { DAILY_CAPS, type EditSuggestion, MESSAGES, NO_LEAK_DETAILS, SUGGESTIONS_PER_MINUTE } from "@unheard/shared";
import { expect, it } from "vitest";
import { insertVerifiedSongs } from "../../test/export-fixtures.js";
import { member, type User, upload, useOwnerFanAdmin } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";
import { insertSuggestionUnchecked } from "./edit-suggestions.repo.js";

/** A valid suggestion body. */
const noLeak = NO_LEAK_DETAILS;

const body = (title: string, reason = "a fix") => ({ title, artists: ["Someone"], genre: "Pop", reason });

/** POST a suggestion as `u`. */
const suggestAs = (ctx: TestContext, u: User | undefined, id: string, payload: object) =>
  ctx.app.inject({
    method: "POST",
    url: `/api/songs/${id}/edit-suggestions`,
    headers: u ? { cookie: u.cookie } : {},
    payload,
  });

/** Suggestions `userId` has made. */
const madeBy = async (ctx: TestContext, userId: string) =>
  Number(
    (
      await ctx.database.db
        .selectFrom("edit_suggestion")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("submitted_by", "=", userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** Every page of the admin queue, followed by its cursor; the ids in order and the totals each page gave. */
async function wholeQueue(ctx: TestContext, admin: User, limit: number) {
  const ids: string[] = [];
  const totals: number[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const url = `/api/edit-suggestions?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const res = await ctx.app.inject({ method: "GET", url, headers: { cookie: admin.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json() as { items: EditSuggestion[]; nextCursor: string | null; total: number };
    expect(page.items.length).toBeLessThanOrEqual(limit);
    ids.push(...page.items.map((i) => i.id));
    totals.push(page.total);
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < 100);
  return { ids, totals, pages };
}

describeEachDialect("edit suggestions", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, fan, admin } = useOwnerFanAdmin(ctx, "s");
  // The songs here are pending: a member reads them (visitors see verified songs only, issue 24).
  const read = (url: string) => ctx.app.inject({ method: "GET", url, headers: { cookie: fan.cookie } });

  const suggest = (u: User | undefined, id: string, payload: object) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/songs/${id}/edit-suggestions`,
      headers: u ? { cookie: u.cookie } : {},
      payload,
    });
  const review = (id: string, payload: object, u: User = admin) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/edit-suggestions/${id}/review`,
      headers: { cookie: u.cookie },
      payload,
    });

  it("records a suggestion and applies it on approval with version, editor and history", async () => {
    const songId = (
      await upload(ctx, owner.cookie, { title: "Wrong Nmae", artists: ["Typo Artist"], genre: "Pop" })
    ).json().id;
    const blankReason = { title: "Right Name", artists: ["Typo Artist"], genre: "Pop", reason: " " };
    const noReason = await suggest(fan, songId, blankReason);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.message).toBe(MESSAGES.suggestionReasonRequired);
    expect(
      (await suggest(undefined, songId, { title: "x", artists: ["y"], genre: "Pop", reason: "z" })).json().error
        .message,
    ).toBe(MESSAGES.loginToSuggest);
    const res = await suggest(fan, songId, {
      title: "Right Name",
      artists: ["Typo Artist"],
      genre: "Rap",
      releaseDate: "2030-03-04",
      reason: "Typo in the title",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(MESSAGES.suggestionSent);
    const list = (
      await ctx.app.inject({ method: "GET", url: "/api/edit-suggestions", headers: { cookie: admin.cookie } })
    ).json();
    const s = list.items.find((x: { songId: string }) => x.songId === songId);
    expect(s).toMatchObject({
      original: { title: "Wrong Nmae", artist: "Typo Artist", genre: "Pop", releaseDate: null },
      suggested: { title: "Right Name", genre: "Rap", releaseDate: "2030-03-04" },
      changedFields: ["title", "genre", "releaseDate"],
      stale: false,
      reason: "Typo in the title",
      submittedBy: { id: fan.id },
    });
    const ok = await review(s.id, { action: "approve", notes: "Thanks" });
    expect(ok.json()).toEqual({ ok: true, message: MESSAGES.suggestionApproved });
    const song = (await read(`/api/songs/${songId}`)).json();
    expect(song).toMatchObject({
      title: "Right Name",
      genre: "Rap",
      releaseDate: "2030-03-04",
      version: 2,
      lastEditedBy: { id: admin.id },
    });
    const history = (await read(`/api/songs/${songId}/history`)).json();
    expect(history.items[0]).toMatchObject({ version: 1, previous: { title: "Wrong Nmae" } });
    const row = await ctx.database.db
      .selectFrom("edit_suggestion")
      .selectAll()
      .where("id", "=", s.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "approved", reviewed_by: admin.id, review_notes: "Thanks" });
    expect((await review(s.id, { action: "reject" })).statusCode).toBe(409);
  });

  it("keeps every tracker detail a suggestion leaves as it was: only what it changes moves on approval", async () => {
    const details = {
      title: "Full Details",
      artists: ["Detail Artist"],
      genre: "Pop",
      tags: "grail",
      aliases: "Other Name",
      references: "Ref Singer",
      versionLabel: "V2",
      fileDate: "2019-06",
      trackLength: "3:05",
      links: "https://files.example.com/a\nhttps://files.example.com/b",
      notes: "Before",
    };
    const uploaded = await upload(ctx, owner.cookie, details);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const songId = uploaded.json().id;
    const before = (await read(`/api/songs/${songId}`)).json();
    expect(before).toMatchObject({ links: ["https://files.example.com/a", "https://files.example.com/b"] });
    const { title, artists, genre } = details;
    const all = {
      title,
      artists,
      genre,
      tags: before.tags,
      aliases: before.aliases,
      references: before.references,
      versionLabel: before.versionLabel,
      fileDate: before.fileDate,
      trackLength: before.trackLength,
      links: before.links,
      notes: "After",
      reason: "Better notes",
    };
    expect((await suggest(fan, songId, all)).statusCode).toBe(201);
    const list = (
      await ctx.app.inject({ method: "GET", url: "/api/edit-suggestions", headers: { cookie: admin.cookie } })
    ).json();
    const s = list.items.find((x: { songId: string }) => x.songId === songId);
    expect(s.changedFields).toEqual(["notes"]);
    expect((await review(s.id, { action: "approve" })).statusCode).toBe(200);
    expect((await read(`/api/songs/${songId}`)).json()).toMatchObject({
      notes: "After",
      tags: ["grail"],
      aliases: ["Other Name"],
      references: ["Ref Singer"],
      versionLabel: "V2",
      fileDate: "2019-06",
      trackLength: 185,
      links: ["https://files.example.com/a", "https://files.example.com/b"],
    });
  });

  it("rejects without touching the song", async () => {
    const songId = (await upload(ctx, owner.cookie, { title: "Keep Me", artists: ["Keeper"] })).json().id;
    const id = (
      await suggest(fan, songId, { title: "Change Me", artists: ["Keeper"], genre: "Pop", reason: "why not" })
    ).json().id;
    expect((await review(id, { action: "reject" })).json().message).toBe(MESSAGES.suggestionRejected);
    expect((await read(`/api/songs/${songId}`)).json()).toMatchObject({
      title: "Keep Me",
      version: 1,
    });
  });

  it("does not silently overwrite an edit made after the suggestion", async () => {
    const songId = (await upload(ctx, owner.cookie, { title: "Moving Target", artists: ["Mover"] })).json().id;
    const id = (
      await suggest(fan, songId, { title: "Old Idea", artists: ["Mover"], genre: "Pop", reason: "guess" })
    ).json().id;
    await ctx.app.inject({
      method: "PATCH",
      url: `/api/songs/${songId}`,
      headers: { cookie: owner.cookie },
      payload: { title: "Owner Fixed", artists: ["Mover"], genre: "Rock", comment: "fixed it" },
    });
    const list = (
      await ctx.app.inject({ method: "GET", url: "/api/edit-suggestions", headers: { cookie: admin.cookie } })
    ).json();
    expect(list.items.find((x: { id: string }) => x.id === id)).toMatchObject({
      stale: true,
      current: { title: "Owner Fixed" },
    });
    const refused = await review(id, { action: "approve" });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(MESSAGES.suggestionStale);
    expect((await read(`/api/songs/${songId}`)).json().title).toBe("Owner Fixed");
    expect((await review(id, { action: "approve", overrideNewerEdits: true })).statusCode).toBe(200);
    // Only the suggested title is applied; the owner's newer genre stays.
    expect((await read(`/api/songs/${songId}`)).json()).toMatchObject({
      title: "Old Idea",
      genre: "Rock",
      version: 3,
    });
  });

  // Issue 24: a suggestion on a hidden song answered 201 and one on an unknown id 404, which told a member that
  // the hidden song exists.
  it("answers a suggestion on a hidden song exactly as one on an unknown id, and records nothing", async () => {
    const songId = (await upload(ctx, owner.cookie, { title: "Hidden Away", artists: ["Hider"] })).json().id;
    await ctx.database.db.updateTable("song").set({ is_hidden: true }).where("id", "=", songId).execute();
    const prober = await member(ctx, "prober-s@example.com");
    const hidden = await suggest(prober, songId, body("Found You"));
    const unknown = await suggest(prober, "nosuchsong000000", body("Found You"));
    expect(hidden.statusCode).toBe(404);
    expect({ status: hidden.statusCode, body: hidden.json() }).toEqual({
      status: unknown.statusCode,
      body: unknown.json(),
    });
    expect(hidden.json().error.message).toBe(MESSAGES.songNotFound);
    const rows = await ctx.database.db
      .selectFrom("edit_suggestion")
      .select("id")
      .where("song_id", "=", songId)
      .execute();
    expect(rows).toEqual([]);
  });

  it("keeps one open suggestion per member and song, by the route and by an edit under review", async () => {
    const songId = (await upload(ctx, owner.cookie, { title: "Only Once", artists: ["Oncer"] })).json().id;
    const twice = await member(ctx, "twice-s@example.com");
    const first = await suggest(twice, songId, body("Only Twice"));
    expect(first.statusCode).toBe(201);
    const again = await suggest(twice, songId, body("Only Thrice"));
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MESSAGES.suggestionAlreadyOpen);
    // A verified contributor's edit becomes a suggestion: the same rule holds on that path.
    const editor = await member(ctx, "editor-s@example.com", "verified_contributor");
    const edit = (title: string) =>
      ctx.app.inject({
        method: "PATCH",
        url: `/api/songs/${songId}`,
        headers: { cookie: editor.cookie },
        payload: { title, artists: ["Oncer"], genre: "Pop", comment: "typo" },
      });
    expect((await edit("Only Once!")).statusCode).toBe(202);
    const secondEdit = await edit("Only Once!!");
    expect(secondEdit.statusCode).toBe(409);
    expect(secondEdit.json().error.message).toBe(MESSAGES.suggestionAlreadyOpen);
    // Once reviewed, the member may suggest again.
    expect((await review(first.json().id, { action: "reject" })).statusCode).toBe(200);
    expect((await suggest(twice, songId, body("Only Twice", "second try"))).statusCode).toBe(201);
  });

  it(`holds a member to ${SUGGESTIONS_PER_MINUTE} suggestions a minute, with a clear message`, async () => {
    const flooder = await member(ctx, "flooder-s@example.com");
    const songs = await insertVerifiedSongs(ctx.database.db, SUGGESTIONS_PER_MINUTE + 3, {
      prefix: "flood",
      artists: 1,
    });
    const answers = [];
    for (const id of songs) answers.push(await suggest(flooder, id, body("Flooded")));
    expect(answers.map((a) => a.statusCode)).toEqual([
      ...Array(SUGGESTIONS_PER_MINUTE).fill(201),
      ...Array(3).fill(429),
    ]);
    expect(answers.at(-1)?.json().error.message).toBe(MESSAGES.tooManySuggestions);
    expect(await madeBy(ctx, flooder.id)).toBe(SUGGESTIONS_PER_MINUTE);
  });

  // Issue 24: the queue showed the oldest 500, so a genuine suggestion posted after a flood never appeared.
  it("pages the admin queue through every pending suggestion, oldest first, and a late one appears", async () => {
    const songs = await insertVerifiedSongs(ctx.database.db, 120, { prefix: "queue", artists: 1 });
    const at = "2020-01-01T00:00:00.000Z";
    const { db } = ctx.database;
    await db.transaction().execute(async (trx) => {
      for (const id of songs) {
        const fields = { title: "Bulk", artists: ["Someone"], genre: "Pop", releaseDate: null, soundcloudUrl: null };
        const sid = await insertSuggestionUnchecked(trx, fan.id, id, { ...fields, ...noLeak }, "bulk");
        // Many at one instant: the id orders them, and no page may skip or repeat one.
        await trx.updateTable("edit_suggestion").set({ submitted_at: at }).where("id", "=", sid).execute();
      }
    });
    const late = (await upload(ctx, owner.cookie, { title: "Late Comer", artists: ["Late"] })).json().id;
    const genuine = await member(ctx, "genuine-s@example.com");
    const lateId = (await suggest(genuine, late, body("Late Comer Fixed"))).json().id;
    const pending = await db
      .selectFrom("edit_suggestion")
      .select(["id", "submitted_at"])
      .where("status", "=", "pending")
      .execute();
    const { ids, totals, pages } = await wholeQueue(ctx, admin, 50);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(pending.map((p) => p.id).sort());
    expect(totals.every((t) => t === pending.length)).toBe(true);
    // Oldest first: the late one is on the last page, after every bulk one.
    const ordered = (await wholeQueue(ctx, admin, 50)).ids;
    expect(ordered.at(-1)).toBe(lateId);
  });
});

// Daily caps on (decision 015; issue 24): a new member's suggestions stop at the cap, one at a time or all at once.
describeEachDialect("edit suggestions under the daily cap", (dialect) => {
  const ctx = useTestApp(dialect, { env: { DAILY_CAPS: "true", VOTE_MIN_RECORD: "3", VOTE_MIN_ACCOUNT_DAYS: "7" } });
  const cap = DAILY_CAPS.suggestions[0];

  /** Let the per-minute window pass (its rows are in the database), so only the daily cap speaks. */
  const nextMinute = () => ctx.database.db.deleteFrom("rate_limit").where("key", "like", "suggest:%").execute();

  it(`stops a new member at ${cap} suggestions a day, on the route and on an edit under review`, async () => {
    const newcomer = await member(ctx, "newcomer-cap@example.com", "verified_contributor");
    const songs = await insertVerifiedSongs(ctx.database.db, cap + 2, { prefix: "capped", artists: 1 });
    for (const id of songs.slice(0, cap)) {
      expect((await suggestAs(ctx, newcomer, id, body("Capped"))).statusCode).toBe(201);
      await nextMinute();
    }
    const over = await suggestAs(ctx, newcomer, songs[cap] ?? "", body("Capped"));
    expect(over.statusCode).toBe(429);
    expect(over.json().error.message).toMatch(
      new RegExp(`^You have reached your limit of ${cap} edit suggestions a day`),
    );
    const edit = await ctx.app.inject({
      method: "PATCH",
      url: `/api/songs/${songs[cap + 1]}`,
      headers: { cookie: newcomer.cookie },
      payload: { title: "Capped Edit", artists: ["Someone"], genre: "Pop", comment: "typo" },
    });
    expect(edit.statusCode).toBe(429);
    expect(await madeBy(ctx, newcomer.id)).toBe(cap);
  });

  it("holds the cap when many suggestions arrive at once", async () => {
    const racer = await member(ctx, "racer-cap@example.com");
    const songs = await insertVerifiedSongs(ctx.database.db, 12, { prefix: "raced", artists: 1 });
    // Two of the day's suggestions made already: the per-minute limit lets 5 of the 12 in, the cap only 3.
    for (const id of songs.slice(0, 2)) expect((await suggestAs(ctx, racer, id, body("Raced"))).statusCode).toBe(201);
    await nextMinute();
    const answers = await Promise.all(songs.slice(2).map((id) => suggestAs(ctx, racer, id, body("Raced"))));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(cap - 2);
    expect(answers.every((a) => a.statusCode === 201 || a.statusCode === 429)).toBe(true);
    expect(await madeBy(ctx, racer.id)).toBe(cap);
  });

  it("keeps one open suggestion per member and song when the same one arrives many times at once", async () => {
    const racer = await member(ctx, "twin-cap@example.com");
    const [songId = ""] = await insertVerifiedSongs(ctx.database.db, 1, { prefix: "twin", artists: 1 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => suggestAs(ctx, racer, songId, body("Twin"))));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
    expect(await madeBy(ctx, racer.id)).toBe(1);
  });
});
