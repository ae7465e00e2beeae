import { MESSAGES, PLAY_COUNT_AFTER_SEC } from "@unheard/shared";
import { beforeAll, expect, it } from "vitest";
import { newId } from "../../lib/ids.js";
import { nameKey } from "../../lib/text.js";
import { expectConsistent } from "../../test/consistency.js";
import { type User, upload, useMembers, verify, wavFile } from "../../test/fixtures.js";
import { describeEachDialect, signUp, useTestApp } from "../../test/harness.js";
import { createSongsRepo } from "../songs/songs.repo.js";

const MINUTE = 60_000;

describeEachDialect("plays", (dialect) => {
  // The rules' clock: tests move it instead of waiting out the threshold and the hour.
  let clock = Date.now();
  const ctx = useTestApp(dialect, { now: () => clock });
  const { owner, fan, other, admin } = useMembers(ctx, {
    owner: "play-owner@example.com",
    fan: "play-fan@example.com",
    other: "play-other@example.com",
    admin: ["play-admin@example.com", "admin"],
  });
  let counter = 0;

  /** A verified song of the owner's with `seconds` of real audio (8 kHz, so uploads stay small). */
  async function song(seconds = 70, opts: { verified?: boolean } = {}): Promise<string> {
    const title = `Played ${dialect} ${++counter}`;
    const res = await upload(
      ctx,
      owner.cookie,
      { title, artists: ["Play Artist"] },
      { name: "song.wav", data: wavFile(seconds, title, 8000) },
    );
    if (res.statusCode !== 201) throw new Error(`upload failed: ${res.body}`);
    const id = res.json().id as string;
    if (opts.verified !== false) await verify(ctx, id);
    return id;
  }

  type As = { user?: User; ip?: string };
  const headers = (as: As) => (as.user ? { cookie: as.user.cookie } : {});
  const start = (id: string, as: As = {}) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/songs/${id}/plays/start`,
      headers: headers(as),
      ...(as.ip ? { remoteAddress: as.ip } : {}),
    });
  const report = (id: string, payload: unknown, as: As = {}) =>
    ctx.app.inject({
      method: "POST",
      url: `/api/songs/${id}/plays`,
      headers: headers(as),
      payload: payload as object,
      ...(as.ip ? { remoteAddress: as.ip } : {}),
    });
  /** Start a play as `as`; its token. */
  async function tokenFor(id: string, as: As = {}): Promise<string> {
    const res = await start(id, as);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  }
  /** Start, let `afterMs` pass on the clock, report: the answer. */
  async function play(id: string, as: As = {}, afterMs = PLAY_COUNT_AFTER_SEC * 1000) {
    const token = await tokenFor(id, as);
    clock += afterMs;
    const res = await report(id, { token }, as);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { counted: boolean; playCount: number };
  }
  const rows = async (id: string) =>
    (await ctx.database.db.selectFrom("song_play").select("listener").where("song_id", "=", id).execute()).length;
  const stored = (id: string) =>
    ctx.database.db
      .selectFrom("song")
      .select(["play_count", "week_plays"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow()
      .then((r) => ({ playCount: Number(r.play_count), weekPlays: Number(r.week_plays) }));
  const songAnswer = async (id: string, user?: User) =>
    (await ctx.app.inject({ method: "GET", url: `/api/songs/${id}`, headers: headers({ user }) })).json();

  let longSong = "";
  beforeAll(async () => {
    longSong = await song(70);
  });

  it("gives anyone a start token for a song they may see that has audio, without writing anything", async () => {
    const visitor = await start(longSong);
    expect(visitor.statusCode).toBe(200);
    expect(visitor.json()).toEqual({ token: expect.any(String), countAfterSec: PLAY_COUNT_AFTER_SEC });
    const member = await start(longSong, { user: fan });
    expect(member.json().countAfterSec).toBe(PLAY_COUNT_AFTER_SEC);
    expect(member.json().token).not.toBe(visitor.json().token);
    expect(await rows(longSong)).toBe(0);
    expect(await songAnswer(longSong)).toMatchObject({ id: longSong, playCount: 0 });
  });

  it("answers as the song page does for a hidden, pending or missing song, and says so for one without audio", async () => {
    const pending = await song(3, { verified: false });
    const visitorPending = await start(pending);
    expect(visitorPending.statusCode).toBe(404);
    expect(visitorPending.json().error.message).toBe(MESSAGES.songNotFound);
    // Members see pending songs (they vote on them), so they may play them.
    expect((await start(pending, { user: fan })).statusCode).toBe(200);

    const hidden = await song(3);
    await ctx.database.db.updateTable("song").set({ is_hidden: true }).where("id", "=", hidden).execute();
    expect((await start(hidden)).statusCode).toBe(404);
    expect((await start(hidden, { user: fan })).statusCode).toBe(404);
    expect((await start(hidden, { user: admin })).statusCode).toBe(200);

    const missing = await start("no-such-song");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(MESSAGES.songNotFound);

    const id = newId();
    const now = new Date().toISOString();
    await ctx.database.db
      .insertInto("song")
      .values({
        id,
        title: `Silent ${dialect}`,
        title_key: nameKey(`Silent ${dialect}`),
        genre: "Pop",
        release_date: null,
        soundcloud_url: null,
        submitted_by: owner.id,
        status: "verified",
        created_at: now,
        updated_at: now,
      })
      .execute();
    const silent = await start(id);
    expect(silent.statusCode).toBe(404);
    expect(silent.json().error.message).toBe(MESSAGES.playNoAudio);
  });

  it("counts a play only once its threshold has passed on the server's clock, and then once", async () => {
    const token = await tokenFor(longSong, { user: fan });
    clock += PLAY_COUNT_AFTER_SEC * 1000 - 1000;
    expect((await report(longSong, { token }, { user: fan })).json()).toEqual({ counted: false, playCount: 0 });
    expect(await rows(longSong)).toBe(0);
    // A visitor's cached copy of the song page is dropped when the count moves.
    expect((await songAnswer(longSong)).playCount).toBe(0);
    clock += 1000;
    expect((await report(longSong, { token }, { user: fan })).json()).toEqual({ counted: true, playCount: 1 });
    expect((await report(longSong, { token }, { user: fan })).json()).toEqual({ counted: false, playCount: 1 });
    expect(await rows(longSong)).toBe(1);
    expect(await stored(longSong)).toEqual({ playCount: 1, weekPlays: 1 });
    expect((await songAnswer(longSong)).playCount).toBe(1);
    expect((await songAnswer(longSong, fan)).playCount).toBe(1);
    await expectConsistent(ctx);
  });

  it("counts the same listener and song again only after an hour", async () => {
    // The last test counted the fan's play 0 ms ago on the clock.
    clock += 59 * MINUTE - PLAY_COUNT_AFTER_SEC * 1000;
    expect(await play(longSong, { user: fan })).toEqual({ counted: false, playCount: 1 });
    clock += 2 * MINUTE - PLAY_COUNT_AFTER_SEC * 1000;
    expect(await play(longSong, { user: fan })).toEqual({ counted: true, playCount: 2 });
    expect(await play(longSong, { user: fan })).toEqual({ counted: false, playCount: 2 });
    // Another member is another listener.
    expect(await play(longSong, { user: other })).toEqual({ counted: true, playCount: 3 });
    expect(await rows(longSong)).toBe(3);
    await expectConsistent(ctx);
  });

  it("counts a song shorter than a minute after half its length", async () => {
    const short = await song(20);
    const started = await start(short, { user: fan });
    expect(started.json().countAfterSec).toBeCloseTo(10, 1);
    const { token } = started.json();
    clock += 9_000;
    expect((await report(short, { token }, { user: fan })).json()).toEqual({ counted: false, playCount: 0 });
    clock += 1_500;
    expect((await report(short, { token }, { user: fan })).json()).toEqual({ counted: true, playCount: 1 });
  });

  it("does not count a start token older than six hours", async () => {
    const id = await song(5);
    expect(await play(id, { user: other }, 6 * 60 * MINUTE + 1000)).toEqual({ counted: false, playCount: 0 });
    expect(await rows(id)).toBe(0);
  });

  it("refuses a token for another song, an altered, a made-up or a missing one with 400, changing nothing", async () => {
    const id = await song(5);
    const token = await tokenFor(longSong, { user: other });
    clock += PLAY_COUNT_AFTER_SEC * 1000;
    const before = { a: await stored(longSong), b: await stored(id) };
    const [payload = "", signature = ""] = token.split(".");
    const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === "A" ? "B" : "A") + s.slice(i + 1);
    const bad = [
      { token },
      { token: `${flip(payload, 3)}.${signature}` },
      { token: `${payload}.${flip(signature, 5)}` },
      { token: payload },
      { token: "not-a-token" },
      { token: "." },
    ];
    for (const body of bad) {
      const res = await report(id, body, { user: other });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: "validation_failed", message: MESSAGES.playTokenInvalid });
    }
    // Altered on the song it was made for, too.
    const altered = await report(longSong, { token: `${payload}.${flip(signature, 0)}` }, { user: other });
    expect(altered.statusCode).toBe(400);
    for (const body of [{}, { token: "" }, { token: "x".repeat(513) }, { token: 42 }, { token: null }]) {
      const res = await report(id, body, { user: other });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toEqual(expect.any(String));
    }
    expect({ a: await stored(longSong), b: await stored(id) }).toEqual(before);
  });

  it("tells visitors and members apart, counts visitors by network, and stores no id or address", async () => {
    const id = await song(5);
    const home = "203.0.113.5";
    expect(await play(id, { ip: home })).toEqual({ counted: true, playCount: 1 });
    // The same network (/24) is the same visitor: a household or office behind one NAT counts once an hour.
    expect(await play(id, { ip: "203.0.113.77" })).toEqual({ counted: false, playCount: 1 });
    expect(await play(id, { ip: "198.51.100.9" })).toEqual({ counted: true, playCount: 2 });
    // A member on the visitor's network is another listener.
    expect(await play(id, { user: fan, ip: home })).toEqual({ counted: true, playCount: 3 });
    // A token started as a visitor and reported after signing in is not the member's: nothing counts.
    const token = await tokenFor(id, { ip: "192.0.2.1" });
    clock += PLAY_COUNT_AFTER_SEC * 1000;
    expect((await report(id, { token }, { user: other, ip: "192.0.2.1" })).json()).toEqual({
      counted: false,
      playCount: 3,
    });
    const kept = await ctx.database.db.selectFrom("song_play").select("listener").execute();
    for (const { listener } of kept) {
      for (const secret of [fan.id, other.id, owner.id, "203.0.113", "198.51.100"])
        expect(listener).not.toContain(secret);
    }
    // Nothing in the song's answer says who played it.
    expect(JSON.stringify(await songAnswer(id, admin))).not.toContain(kept[0]?.listener ?? "-");
  });

  // Issue 38: five accounts never let in added five plays to one song in one window, while refused a vote.
  it("counts an account the waitlist holds as a visitor of its network, never as a listener of its own", async () => {
    const id = await song(5);
    const held: User[] = [];
    for (let i = 0; i < 5; i++) {
      const email = `play-held-${dialect}-${i}@example.com`;
      held.push({ cookie: await signUp(ctx, email), id: "" });
    }
    const net = "198.18.7.";
    const answers = [];
    for (const [i, user] of held.entries()) answers.push(await play(id, { user, ip: `${net}${i + 1}` }));
    expect(answers.map((a) => a.counted)).toEqual([true, false, false, false, false]);
    // The same network signed out is the same listener; the held accounts on another network are one more.
    expect(await play(id, { ip: `${net}99` })).toEqual({ counted: false, playCount: 1 });
    expect(await play(id, { user: held[0], ip: "198.18.8.1" })).toEqual({ counted: true, playCount: 2 });
    expect(await play(id, { user: held[1], ip: "198.18.8.2" })).toEqual({ counted: false, playCount: 2 });
    // A member on that network is a listener of its own, as before.
    expect(await play(id, { user: fan, ip: `${net}1` })).toEqual({ counted: true, playCount: 3 });
    // Let in from the waitlist, an account listens as itself.
    const email = `play-held-${dialect}-0@example.com`;
    await ctx.database.db.updateTable("user").set({ off_waitlist: true }).where("email", "=", email).execute();
    expect(await play(id, { user: held[0], ip: `${net}1` })).toEqual({ counted: true, playCount: 4 });
    expect(await rows(id)).toBe(4);
    await expectConsistent(ctx);
  });

  it("counts 20 concurrent reports of one play once", async () => {
    const id = await song(5);
    const token = await tokenFor(id, { user: fan });
    clock += PLAY_COUNT_AFTER_SEC * 1000;
    const answers = await Promise.all(Array.from({ length: 20 }, () => report(id, { token }, { user: fan })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.json().counted === true)).toHaveLength(1);
    expect(Math.max(...answers.map((a) => a.json().playCount))).toBe(1);
    expect(await rows(id)).toBe(1);
    expect(await stored(id)).toEqual({ playCount: 1, weekPlays: 1 });
  });

  it("breaks ties between equal week likes by this week's plays, and never ranks plays above a like", async () => {
    const [early, late, liked] = [await song(5), await song(5), await song(5)];
    await ctx.database.db.updateTable("song").set({ release_date: "2020-01-01" }).where("id", "=", early).execute();
    await ctx.database.db.updateTable("song").set({ release_date: "2021-01-01" }).where("id", "=", late).execute();
    for (const id of [early, late, liked])
      await ctx.app.inject({ method: "PUT", url: `/api/songs/${id}/favorite`, headers: { cookie: fan.cookie } });
    await ctx.app.inject({ method: "PUT", url: `/api/songs/${liked}/favorite`, headers: { cookie: other.cookie } });
    // Read as an admin: never the visitors' cached feed.
    const trending = async () => {
      const res = await ctx.app.inject({
        method: "GET",
        url: "/api/songs?feed=trending&limit=48",
        headers: { cookie: admin.cookie },
      });
      return (res.json().items as { id: string }[]).map((s) => s.id).filter((s) => [early, late, liked].includes(s));
    };
    expect(await trending()).toEqual([liked, early, late]);
    for (const as of [{ user: fan }, { user: other }, { ip: "192.0.2.50" }])
      expect((await play(late, as)).counted).toBe(true);
    expect(await trending()).toEqual([liked, late, early]);

    // Plays that age out of the week leave week_plays (and the tie) with the trending refresh; play_count keeps them.
    const weekAgo = new Date(Date.now() - 8 * 864e5).toISOString();
    await ctx.database.db.updateTable("song_play").set({ created_at: weekAgo }).where("song_id", "=", late).execute();
    await createSongsRepo(ctx.database).refreshWeekPlays();
    expect(await stored(late)).toEqual({ playCount: 3, weekPlays: 0 });
    expect(await trending()).toEqual([liked, early, late]);
    await expectConsistent(ctx);
  });

  it("keeps every play count equal to its rows after all of it", async () => {
    await createSongsRepo(ctx.database).refreshWeekPlays();
    await expectConsistent(ctx);
  });
});
