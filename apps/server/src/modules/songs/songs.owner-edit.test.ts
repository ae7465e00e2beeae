import { MESSAGES } from "@unheard/shared";
import { expect, it } from "vitest";
import { storedNumber, type User, upload, useMembers, vote } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";

const edit = (ctx: TestContext, u: User, id: string, payload: object) =>
  ctx.app.inject({ method: "PATCH", url: `/api/songs/${id}`, headers: { cookie: u.cookie }, payload });
const read = async (ctx: TestContext, id: string) =>
  (await ctx.app.inject({ method: "GET", url: `/api/songs/${id}` })).json();

// Issue 24: the owner of a verified song renamed it "FREE DOWNLOAD evil.example" and credited a verified artist;
// it stayed verified, with its votes and the +200. What the badge vouched for now changes only after review.
describeEachDialect("songs: an owner's edits of a verified song", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, admin, a, b, c } = useMembers(ctx, {
    owner: "owner-oe@example.com",
    admin: ["admin-oe@example.com", "admin"],
    a: "a-oe@example.com",
    b: "b-oe@example.com",
    c: "c-oe@example.com",
  });

  it("sends a change of title or artists to review, and applies the other fields at once", async () => {
    const id = (
      await upload(ctx, owner.cookie, { title: "Honest Song", artists: ["Small Artist"], genre: "Pop" })
    ).json().id as string;
    for (const u of [a, b, c]) expect((await vote(ctx, u.cookie, id, "up")).statusCode).toBe(200);
    const before = await read(ctx, id);
    expect(before).toMatchObject({ status: "verified", upvotes: 3, version: 1 });
    expect(await storedNumber(ctx, "user", "points", ["id", owner.id])).toBe(200);

    const fields = { title: "Honest Song", artists: ["Small Artist"], genre: "Pop", releaseDate: null };
    const review = (suggestionId: string, action: "approve" | "reject") =>
      ctx.app.inject({
        method: "POST",
        url: `/api/edit-suggestions/${suggestionId}/review`,
        headers: { cookie: admin.cookie },
        payload: { action, overrideNewerEdits: true },
      });
    // Each goes to the admins' queue as the owner's suggestion (rejected here, so the next one may be made).
    let rename = "";
    for (const change of [
      { artists: ["Famous Verified Artist"] },
      { artists: ["Small Artist", "Famous Verified Artist"] },
      { title: "FREE DOWNLOAD evil.example" },
    ]) {
      const res = await edit(ctx, owner, id, { ...fields, ...change, comment: "update" });
      expect(res.statusCode, JSON.stringify(change)).toBe(202);
      expect(res.json()).toMatchObject({ applied: false, message: MESSAGES.editSubmittedForReview });
      const row = await ctx.database.db
        .selectFrom("edit_suggestion")
        .select(["submitted_by", "status", "suggested"])
        .where("id", "=", res.json().suggestionId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ submitted_by: owner.id, status: "pending" });
      expect(JSON.parse(row.suggested)).toMatchObject(change);
      if (change.title) rename = res.json().suggestionId;
      else expect((await review(res.json().suggestionId, "reject")).statusCode).toBe(200);
    }
    // Nothing changed: same title, credits and version, still verified.
    expect(await read(ctx, id)).toMatchObject({
      title: "Honest Song",
      artists: [{ name: "Small Artist" }],
      version: 1,
      status: "verified",
    });

    // Genre, release date and leak details, and the same title and artists written differently, apply at once.
    const direct = await edit(ctx, owner, id, {
      title: "honest  SONG",
      artists: ["small artist"],
      genre: "Rock",
      releaseDate: "2031-01-01",
      notes: "Played live once",
      comment: "genre and date",
    });
    expect(direct.statusCode).toBe(200);
    expect(direct.json()).toMatchObject({
      applied: true,
      song: { genre: "Rock", releaseDate: "2031-01-01", notes: "Played live once", status: "verified", version: 2 },
    });

    // An admin approves the rename: now it applies.
    const approved = await review(rename, "approve");
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await read(ctx, id)).title).toBe("FREE DOWNLOAD evil.example");
    // Admins edit a verified song's title directly.
    const byAdmin = await edit(ctx, admin, id, { ...fields, title: "Honest Song", comment: "spam removed" });
    expect(byAdmin.statusCode).toBe(200);
    expect((await read(ctx, id)).title).toBe("Honest Song");
  });

  it("lets the owner of a pending song change its title and artists directly", async () => {
    const id = (await upload(ctx, owner.cookie, { title: "Draft Title", artists: ["Draft Artist"] })).json()
      .id as string;
    const res = await edit(ctx, owner, id, {
      title: "Final Title",
      artists: ["Final Artist"],
      genre: "Pop",
      comment: "typo",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      applied: true,
      song: { title: "Final Title", artists: [{ name: "Final Artist" }] },
    });
  });
});
