import { MESSAGES, NO_LEAK_DETAILS } from "@unheard/shared";
import { expect, it } from "vitest";
import { type User, upload, useOwnerFanAdmin, verify, wavFile } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";

/** Upload a song with extra multipart fields (leak details) as `u`. */
const uploadWith = (ctx: TestContext, u: User, title: string, extra: Record<string, string | string[]>) =>
  upload(
    ctx,
    u.cookie,
    { title, artists: ["Leak Artist"], genre: "Rap", ...extra },
    { name: "song.wav", data: wavFile(2, title) },
  );

/** PATCH a song as `u`. */
const patch = (ctx: TestContext, u: User, id: string, payload: object) =>
  ctx.app.inject({ method: "PATCH", url: `/api/songs/${id}`, headers: { cookie: u.cookie }, payload });

const LEAK = {
  era: "Wolf Era",
  producers: "Mike Dean, mike dean ,  Frank Dukes",
  features: ["Guest One", " ", "Guest Two"],
  leakDate: "2024-02-29",
  availability: "og_file",
  quality: "lossless",
  notes: "Surfaced in a group buy.",
};
/** `LEAK` as stored: names trimmed, blank ones and duplicates dropped. */
const STORED_LEAK = {
  ...LEAK,
  producers: ["Mike Dean", "Frank Dukes"],
  features: ["Guest One", "Guest Two"],
};

describeEachDialect("songs: leak details", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, fan, admin } = useOwnerFanAdmin(ctx, "leak");

  it("stores leak details given on upload, trimmed and deduplicated, and shows them on the song", async () => {
    const res = await uploadWith(ctx, owner, "Leak Upload", LEAK);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ ...STORED_LEAK, versionOf: null, versionCount: 0 });
    const bare = (await uploadWith(ctx, owner, "No Details", {})).json();
    expect(bare).toMatchObject(NO_LEAK_DETAILS);
  });

  it("refuses bad leak details with a clear message naming the field", async () => {
    const song = (await uploadWith(ctx, owner, "Strict Details", {})).json();
    const base = { title: "Strict Details", artists: ["Leak Artist"], genre: "Rap", comment: "details" };
    const cases: [object, string, string][] = [
      [{ availability: "leaked" }, "availability", MESSAGES.invalidAvailability],
      [{ quality: "great" }, "quality", MESSAGES.invalidQuality],
      [{ leakDate: "2023-02-30" }, "leakDate", MESSAGES.invalidLeakDate],
      [{ leakDate: "yesterday" }, "leakDate", MESSAGES.invalidLeakDate],
      [{ leakDate: "2999-01-01" }, "leakDate", MESSAGES.futureLeakDate],
      [{ era: "e".repeat(101) }, "era", MESSAGES.eraTooLong],
      [{ producers: Array.from({ length: 11 }, (_, i) => `Producer ${i}`) }, "producers", MESSAGES.leakNamesTooMany],
      [{ features: ["f".repeat(101)] }, "features", MESSAGES.leakNameTooLong],
      [{ notes: "n".repeat(2001) }, "notes", MESSAGES.leakNotesTooLong],
    ];
    for (const [fields, field, message] of cases) {
      const res = await patch(ctx, owner, song.id, { ...base, ...fields });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error.message).toBe(message);
      expect(res.json().error.fields?.[field]).toBe(message);
    }
    // The upload form checks the same way.
    const refused = await uploadWith(ctx, owner, "Bad Upload", { availability: "bootleg" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      message: MESSAGES.invalidAvailability,
      fields: { availability: MESSAGES.invalidAvailability },
    });
    // Blank means none.
    const blank = await patch(ctx, owner, song.id, { ...base, era: "  ", leakDate: "", availability: "", notes: "" });
    expect(blank.statusCode).toBe(200);
    expect(blank.json().song).toMatchObject({ era: null, leakDate: null, availability: null, notes: null });
  });

  it("edits leak details with a history entry holding the values they replaced", async () => {
    const song = (await uploadWith(ctx, owner, "Edited Leak", LEAK)).json();
    const res = await patch(ctx, owner, song.id, {
      title: "Edited Leak",
      artists: ["Leak Artist"],
      genre: "Rap",
      era: "Later Era",
      producers: ["Mike Dean"],
      availability: "snippet",
      quality: "low",
      comment: "Only a snippet is out",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().song).toMatchObject({
      era: "Later Era",
      producers: ["Mike Dean"],
      features: [],
      availability: "snippet",
      quality: "low",
      leakDate: null,
      version: 2,
    });
    // A pending song: its owner reads it (visitors see verified songs only).
    const history = (
      await ctx.app.inject({ method: "GET", url: `/api/songs/${song.id}/history`, headers: { cookie: owner.cookie } })
    ).json();
    expect(history.items[0]).toMatchObject({
      version: 1,
      comment: "Only a snippet is out",
      previous: { ...STORED_LEAK, versionOf: null },
    });
  });

  it("carries leak details in edit suggestions, side by side, and applies them on approval", async () => {
    const song = (await uploadWith(ctx, owner, "Suggested Leak", { era: "Old Era", quality: "low" })).json();
    const sent = await ctx.app.inject({
      method: "POST",
      url: `/api/songs/${song.id}/edit-suggestions`,
      headers: { cookie: fan.cookie },
      payload: {
        title: "Suggested Leak",
        artists: ["Leak Artist"],
        genre: "Rap",
        era: "Old Era",
        quality: "high",
        availability: "full",
        producers: "Someone Real",
        reason: "The full song leaked in HQ",
      },
    });
    expect(sent.statusCode).toBe(201);
    const bad = await ctx.app.inject({
      method: "POST",
      url: `/api/songs/${song.id}/edit-suggestions`,
      headers: { cookie: fan.cookie },
      payload: { title: "Suggested Leak", artists: ["Leak Artist"], genre: "Rap", quality: "meh", reason: "x" },
    });
    expect(bad.json().error.message).toBe(MESSAGES.invalidQuality);
    const list = (
      await ctx.app.inject({ method: "GET", url: "/api/edit-suggestions", headers: { cookie: admin.cookie } })
    ).json();
    const s = list.items.find((x: { id: string }) => x.id === sent.json().id);
    expect(s).toMatchObject({
      original: { era: "Old Era", quality: "low", availability: null, producers: [] },
      suggested: { era: "Old Era", quality: "high", availability: "full", producers: ["Someone Real"] },
      changedFields: ["producers", "availability", "quality"],
    });
    const ok = await ctx.app.inject({
      method: "POST",
      url: `/api/edit-suggestions/${s.id}/review`,
      headers: { cookie: admin.cookie },
      payload: { action: "approve" },
    });
    expect(ok.statusCode).toBe(200);
    const after = (
      await ctx.app.inject({ method: "GET", url: `/api/songs/${song.id}`, headers: { cookie: owner.cookie } })
    ).json();
    expect(after).toMatchObject({
      era: "Old Era",
      quality: "high",
      availability: "full",
      producers: ["Someone Real"],
      version: 2,
    });
  });

  it("filters the home feed by availability and quality, and refuses unknown values", async () => {
    const full = (await uploadWith(ctx, owner, "Filter Full", { availability: "full", quality: "high" })).json();
    const snip = (await uploadWith(ctx, owner, "Filter Snippet", { availability: "snippet", quality: "high" })).json();
    await verify(ctx, full.id, snip.id);
    const ids = async (query: string) =>
      (await ctx.app.inject({ method: "GET", url: `/api/songs?${query}` }))
        .json()
        .items.map((s: { id: string }) => s.id);
    expect(await ids("availability=full")).toContain(full.id);
    expect(await ids("availability=full")).not.toContain(snip.id);
    expect(await ids("availability=snippet&quality=high")).toEqual([snip.id]);
    expect(await ids("quality=high")).toEqual(expect.arrayContaining([full.id, snip.id]));
    expect(await ids("quality=lossless&feed=trending")).toEqual([]);
    const bad = await ctx.app.inject({ method: "GET", url: "/api/songs?availability=leaked" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe(MESSAGES.invalidAvailability);
    expect((await ctx.app.inject({ method: "GET", url: "/api/songs?quality=nice" })).json().error.message).toBe(
      MESSAGES.invalidQuality,
    );
    // The visitors' cached answer follows an edit at once.
    await patch(ctx, owner, snip.id, {
      title: "Filter Snippet",
      artists: ["Leak Artist"],
      genre: "Rap",
      availability: "full",
      quality: "high",
      comment: "It is out in full now",
    });
    expect(await ids("availability=full")).toEqual(expect.arrayContaining([full.id, snip.id]));
    expect(await ids("availability=snippet&quality=high")).toEqual([]);
  });
});
