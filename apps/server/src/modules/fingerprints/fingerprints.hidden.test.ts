// Issue 24 (finding 11): uploading a hidden song's audio answered 409 naming the hidden song (id, title, artist).
// A match against a song the uploader may not see is refused with a message that names nothing; admins still see
// the match if the uploader goes ahead.
import { MESSAGES } from "@unheard/shared";
import { beforeAll, expect, it } from "vitest";
import { multipart, upload, useMembers, wavFile } from "../../test/fixtures.js";
import { describeEachDialect, useTestApp } from "../../test/harness.js";

describeEachDialect("an upload matching a hidden song (issue 24)", (dialect) => {
  const ctx = useTestApp(dialect);
  const users = useMembers(ctx, {
    owner: "hidden-owner@example.com",
    copier: "hidden-copier@example.com",
    admin: ["hidden-admin@example.com", "admin"],
  });
  const audio = { name: "secret.wav", data: wavFile(12, "a song that gets hidden") };
  let hiddenId = "";

  beforeAll(async () => {
    const res = await upload(
      ctx,
      users.owner.cookie,
      { title: "Secret Leak Title", artists: ["Secret Artist"] },
      audio,
    );
    expect(res.statusCode).toBe(201);
    hiddenId = res.json().id;
    await ctx.app.jobs.drain();
    await ctx.database.db.updateTable("song").set({ is_hidden: true }).where("id", "=", hiddenId).execute();
  });

  it("is refused without naming the hidden song (no id, title or artist)", async () => {
    const res = await upload(ctx, users.copier.cookie, { title: "Innocent Title", artists: ["Someone"] }, audio);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe(MESSAGES.duplicateAudioHidden);
    expect(res.json().error.fields.audio).toBe(MESSAGES.duplicateAudioHidden);
    expect(res.json().error.details).toBeUndefined();
    for (const secret of [hiddenId, "Secret Leak Title", "Secret Artist"]) expect(res.body).not.toContain(secret);
  });

  it("names it to an admin, who may see it, and shows admins the match when a member goes ahead", async () => {
    const asAdmin = await upload(ctx, users.admin.cookie, { title: "Admin Copy", artists: ["Someone"] }, audio);
    expect(asAdmin.statusCode).toBe(409);
    expect(asAdmin.json().error.details.duplicateOf).toMatchObject({ id: hiddenId, title: "Secret Leak Title" });
    const body = multipart(
      { title: "Innocent Title", artists: ["Someone"], genre: "Pop", allowDuplicateAudio: "true" },
      audio,
    );
    const forced = await ctx.app.inject({
      method: "POST",
      url: "/api/songs",
      payload: body.payload,
      headers: { ...body.headers, cookie: users.copier.cookie },
    });
    expect(forced.statusCode).toBe(201);
    expect(forced.body).not.toContain(hiddenId);
    const seen = await ctx.app.inject({
      method: "GET",
      url: `/api/songs/${forced.json().id}`,
      headers: { cookie: users.admin.cookie },
    });
    expect(seen.json().audioMatch).toMatchObject({ songId: hiddenId });
  });
});
