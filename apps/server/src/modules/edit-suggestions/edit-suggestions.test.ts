import { MESSAGES } from "@unheard/shared";
import { expect, it } from "vitest";
import { type User, upload, useOwnerFanAdmin } from "../../test/fixtures.js";
import { describeEachDialect, useTestApp } from "../../test/harness.js";

describeEachDialect("edit suggestions", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, fan, admin } = useOwnerFanAdmin(ctx, "s");

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
    const song = (await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}` })).json();
    expect(song).toMatchObject({
      title: "Right Name",
      genre: "Rap",
      releaseDate: "2030-03-04",
      version: 2,
      lastEditedBy: { id: admin.id },
    });
    const history = (await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}/history` })).json();
    expect(history.items[0]).toMatchObject({ version: 1, previous: { title: "Wrong Nmae" } });
    const row = await ctx.database.db
      .selectFrom("edit_suggestion")
      .selectAll()
      .where("id", "=", s.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "approved", reviewed_by: admin.id, review_notes: "Thanks" });
    expect((await review(s.id, { action: "reject" })).statusCode).toBe(409);
  });

  it("rejects without touching the song", async () => {
    const songId = (await upload(ctx, owner.cookie, { title: "Keep Me", artists: ["Keeper"] })).json().id;
    const id = (
      await suggest(fan, songId, { title: "Change Me", artists: ["Keeper"], genre: "Pop", reason: "why not" })
    ).json().id;
    expect((await review(id, { action: "reject" })).json().message).toBe(MESSAGES.suggestionRejected);
    expect((await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}` })).json()).toMatchObject({
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
    expect((await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}` })).json().title).toBe("Owner Fixed");
    expect((await review(id, { action: "approve", overrideNewerEdits: true })).statusCode).toBe(200);
    // Only the suggested title is applied; the owner's newer genre stays.
    expect((await ctx.app.inject({ method: "GET", url: `/api/songs/${songId}` })).json()).toMatchObject({
      title: "Old Idea",
      genre: "Rock",
      version: 3,
    });
  });
});
