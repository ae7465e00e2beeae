import { MESSAGES } from "@unheard/shared";
import { expect, it } from "vitest";
import { getMe, member, patchMe, upload, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, signUp, type TestContext, useTestApp } from "../../test/harness.js";

/** The user row of `id`: name, key and the artist flags. */
function account(ctx: TestContext, id: string) {
  return ctx.database.db
    .selectFrom("user")
    .select(["username", "username_key", "is_artist", "is_verified", "bio"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

/** The id of the account signed up with `email`. */
async function idOf(ctx: TestContext, email: string): Promise<string> {
  const row = await ctx.database.db
    .selectFrom("user")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  return row.id;
}

// Issue 24, finding 2: an artist's identity is an artist profile, never a member's username.
describeEachDialect("artist identity and usernames", (dialect) => {
  const ctx = useTestApp(dialect);
  const people = useMembers(ctx, {
    squatter: "squatter-id@example.com",
    uploader: "uploader-id@example.com",
    other: "other-id@example.com",
    admin: ["admin-id@example.com", "admin"],
  });

  it("credits a name a member took first to a placeholder artist, not to the member's account", async () => {
    const { squatter, uploader } = people;
    expect((await patchMe(ctx, squatter.cookie, { username: "Nova Tide" })).statusCode).toBe(200);
    const song = await upload(ctx, uploader.cookie, { title: "Tide Song", artists: ["Nova Tide"] });
    expect(song.statusCode).toBe(201);
    const artist = song.json().artists[0] as { id: string; name: string };
    expect(artist.id).not.toBe(squatter.id);
    expect(artist.name).toBe("Nova Tide");
    expect(Boolean((await account(ctx, squatter.id)).is_artist)).toBe(false);
    // The member cannot edit the artist page, and their account has none.
    const edit = await ctx.app.inject({
      method: "PATCH",
      url: `/api/artists/${artist.id}`,
      headers: { cookie: squatter.cookie },
      payload: { bio: "It's me", instagram: null, twitter: null, website: null },
    });
    expect(edit.statusCode).toBe(403);
    expect((await ctx.app.inject({ method: "GET", url: `/api/artists/${squatter.id}` })).statusCode).toBe(404);
    // Renaming the member again leaves the credit alone.
    expect((await patchMe(ctx, squatter.cookie, { username: "Someone Else" })).statusCode).toBe(200);
    const again = (
      await ctx.app.inject({ method: "GET", url: `/api/songs/${song.json().id}`, headers: { cookie: uploader.cookie } })
    ).json();
    expect(again.artists).toEqual([{ id: artist.id, name: "Nova Tide" }]);
    // A second credit of the name goes to the same artist profile.
    const second = await upload(ctx, uploader.cookie, { title: "Tide Song Two", artists: ["nova tide"] });
    expect(second.json().artists[0].id).toBe(artist.id);
    // And now no member can take the artist's name.
    const taken = await patchMe(ctx, squatter.cookie, { username: "Nova Tide" });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe(MESSAGES.usernameIsArtist);
  });

  it("does not turn an account into an artist when a song credits its username", async () => {
    const { admin, uploader } = people;
    const before = await account(ctx, admin.id);
    const song = await upload(ctx, uploader.cookie, { title: "Crediting Admin", artists: [before.username] });
    expect(song.statusCode).toBe(201);
    const credited = song.json().artists[0] as { id: string; name: string };
    expect(credited.id).not.toBe(admin.id);
    const after = await account(ctx, admin.id);
    expect(Boolean(after.is_artist)).toBe(false);
    // The member keeps their username; only its key moved aside for the artist's.
    expect(after.username).toBe(before.username);
    expect((await getMe(ctx, admin.cookie)).json()).toMatchObject({ username: before.username, isArtist: false });
  });

  it("refuses names an artist profile uses, and look-alikes of taken names", async () => {
    const { uploader, other } = people;
    await upload(ctx, uploader.cookie, { title: "Placeholder Song", artists: ["Kid Halcyon"] });
    const artist = await patchMe(ctx, other.cookie, { username: "kid halcyon" });
    expect(artist.statusCode).toBe(409);
    expect(artist.json().error).toMatchObject({ code: "username_taken", message: MESSAGES.usernameIsArtist });
    // Fullwidth letters, a zero-width space, whole-script Cyrillic look-alikes: one key with the taken name.
    const squat = await signUp(ctx, "lookalike-owner@example.com");
    expect((await patchMe(ctx, squat, { username: "paypal" })).statusCode).toBe(200);
    // Fullwidth 'ｐａｙｐａｌ' and all-Cyrillic 'раураӏ' pass the character rules but fold to the taken key.
    for (const name of ["ｐａｙｐａｌ", "\u0440\u0430\u0443\u0440\u0430\u04cf", "KID HALCYON"]) {
      const res = await patchMe(ctx, other.cookie, { username: name });
      expect(res.statusCode, name).toBe(409);
    }
    // A zero-width space is no character a name may use.
    expect((await patchMe(ctx, other.cookie, { username: "Kid\u200bHalcyon" })).statusCode).toBe(400);
    // Mixed scripts are refused with a clear message: 'аdmin' with a Cyrillic а.
    const mixed = await patchMe(ctx, other.cookie, { username: "\u0430dmin" });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().error.message).toMatch(/one alphabet/);
    // An invisible letter (Hangul filler) is not a character a name may use.
    expect((await patchMe(ctx, other.cookie, { username: "admin\u3164" })).statusCode).toBe(400);
    expect((await account(ctx, other.id)).username).not.toMatch(/halcyon|paypal|admin/i);
  });

  it("does not let an artist account rename itself, and a rename never keeps a verified badge", async () => {
    const { uploader } = people;
    const artistAccount = await member(ctx, "artist-account-id@example.com");
    const song = await upload(ctx, uploader.cookie, { title: "Linked Song", artists: ["Linked Artist"] });
    const placeholder = song.json().artists[0].id as string;
    const claim = await ctx.app.inject({
      method: "POST",
      url: `/api/admin/artists/${placeholder}/claim`,
      headers: { cookie: people.admin.cookie },
      payload: { userId: artistAccount.id },
    });
    expect(claim.statusCode).toBe(200);
    await ctx.database.db.updateTable("user").set({ is_verified: true }).where("id", "=", artistAccount.id).execute();
    const name = (await account(ctx, artistAccount.id)).username;
    const rename = await patchMe(ctx, artistAccount.cookie, { username: "Totally Different" });
    expect(rename.statusCode).toBe(403);
    expect(rename.json().error.message).toBe(MESSAGES.artistRenameByAdmin);
    const row = await account(ctx, artistAccount.id);
    expect(row.username).toBe(name);
    expect(Boolean(row.is_verified)).toBe(true);
    const credit = (
      await ctx.app.inject({ method: "GET", url: `/api/songs/${song.json().id}`, headers: { cookie: uploader.cookie } })
    ).json();
    expect(credit.artists[0]).toEqual({ id: artistAccount.id, name });
    // Saving the same name is no change, so it answers 200.
    expect((await patchMe(ctx, artistAccount.cookie, { username: name })).statusCode).toBe(200);

    // A member whose badge was set by hand (no artist): renaming drops it.
    const badge = await member(ctx, "badge-id@example.com");
    await ctx.database.db.updateTable("user").set({ is_verified: true }).where("id", "=", badge.id).execute();
    expect((await patchMe(ctx, badge.cookie, { username: "Badge Renamed" })).statusCode).toBe(200);
    expect(Boolean((await account(ctx, badge.id)).is_verified)).toBe(false);
  });

  it("links a member whose name an artist took back to that name's key when an admin links them", async () => {
    const { uploader } = people;
    const real = await member(ctx, "real-artist-id@example.com");
    expect((await patchMe(ctx, real.cookie, { username: "Ada Quill" })).statusCode).toBe(200);
    const song = await upload(ctx, uploader.cookie, { title: "Quill Song", artists: ["Ada Quill"] });
    const placeholder = song.json().artists[0].id as string;
    expect(placeholder).not.toBe(real.id);
    const claim = await ctx.app.inject({
      method: "POST",
      url: `/api/admin/artists/${placeholder}/claim`,
      headers: { cookie: people.admin.cookie },
      payload: { userId: real.id },
    });
    expect(claim.statusCode).toBe(200);
    expect(await account(ctx, real.id)).toMatchObject({ username: "Ada Quill", username_key: "ada quill" });
    const next = await upload(ctx, uploader.cookie, { title: "Quill Song Two", artists: ["Ada Quill"] });
    expect(next.json().artists[0].id).toBe(real.id);
  });

  it("applies the rename rules to waitlisted accounts too", async () => {
    const held = await signUp(ctx, "held-id@example.com");
    const heldId = await idOf(ctx, "held-id@example.com");
    expect((await getMe(ctx, held)).json().waitlisted).toBe(true);
    expect((await patchMe(ctx, held, { username: "Kid Halcyon" })).statusCode).toBe(409);
    expect((await patchMe(ctx, held, { username: "\u0430dmin" })).statusCode).toBe(400);
    expect((await patchMe(ctx, held, { username: "Held Member" })).statusCode).toBe(200);
    // Its name claimed first, a later credit still goes to a placeholder.
    expect((await patchMe(ctx, held, { username: "Waitlisted Star" })).statusCode).toBe(200);
    const song = await upload(ctx, people.uploader.cookie, { title: "Star Song", artists: ["Waitlisted Star"] });
    expect(song.json().artists[0].id).not.toBe(heldId);
    expect(Boolean((await account(ctx, heldId)).is_artist)).toBe(false);
  });
});
