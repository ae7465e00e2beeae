import { MESSAGES } from "@unheard/shared";
import { expect, it } from "vitest";
import { encodeWav } from "../../lib/wav.js";
import { hashString, synthesizeTrack } from "../../seed/synth.js";
import { type User, upload, useMembers, verify } from "../../test/fixtures.js";
import { describeEachDialect, type TestContext, useTestApp } from "../../test/harness.js";

/** Link (or, given null, unlink) a song as a version of another, as `u` (a visitor without one). */
const link = (ctx: TestContext, u: User | undefined, id: string, body: object | null) =>
  ctx.app.inject({
    method: body ? "PUT" : "DELETE",
    url: `/api/songs/${id}/version-of`,
    headers: u ? { cookie: u.cookie } : {},
    ...(body ? { payload: body } : {}),
  });

const getSong = async (ctx: TestContext, id: string, u?: User) =>
  (await ctx.app.inject({ method: "GET", url: `/api/songs/${id}`, headers: u ? { cookie: u.cookie } : {} })).json();

const search = async (ctx: TestContext, q: string) =>
  (await ctx.app.inject({ method: "GET", url: `/api/search?q=${encodeURIComponent(q)}` })).json().songs as {
    id: string;
    versionCount: number;
  }[];

describeEachDialect("songs: versions", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, other, contributor, admin } = useMembers(ctx, {
    owner: "owner-ver@example.com",
    other: "other-ver@example.com",
    contributor: ["vc-ver@example.com", "verified_contributor"],
    admin: ["admin-ver@example.com", "admin"],
  });
  const song = async (u: User, title: string) =>
    (await upload(ctx, u.cookie, { title, artists: ["Version Artist"] })).json().id as string;
  /** Upload songs as `u`, one after another; their ids in order. */
  const songs = async <T extends string[]>(u: User, ...titles: T) => {
    const ids: string[] = [];
    for (const title of titles) ids.push(await song(u, title));
    return ids as { [K in keyof T]: string };
  };
  const hide = (id: string) =>
    ctx.app.inject({
      method: "PUT",
      url: `/api/songs/${id}/hidden`,
      headers: { cookie: admin.cookie },
      payload: { hidden: true },
    });

  it("links a song as a version with history and a version bump, lists it, and unlinks it", async () => {
    const parent = await song(owner, "Parent Song");
    const snippet = await song(owner, "Parent Song (snippet)");
    await verify(ctx, parent, snippet);
    // A visitor's cached copy of the parent must not outlive the link.
    expect((await getSong(ctx, parent)).versionCount).toBe(0);
    const res = await link(ctx, owner, snippet, { songId: parent, kind: "snippet" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      versionOf: { id: parent, title: "Parent Song", kind: "snippet" },
      version: 2,
      lastEditedBy: { id: owner.id },
    });
    expect((await getSong(ctx, parent)).versionCount).toBe(1);
    const versions = (await ctx.app.inject({ method: "GET", url: `/api/songs/${parent}/versions` })).json();
    expect(versions.items.map((s: { id: string }) => s.id)).toEqual([snippet]);
    const history = (await ctx.app.inject({ method: "GET", url: `/api/songs/${snippet}/history` })).json();
    expect(history.items[0]).toMatchObject({
      version: 1,
      comment: MESSAGES.versionLinked,
      previous: { title: "Parent Song (snippet)", versionOf: null },
    });
    // Linking again the same way changes nothing; a new kind is another edit.
    expect((await link(ctx, owner, snippet, { songId: parent, kind: "snippet" })).json().version).toBe(2);
    expect((await link(ctx, admin, snippet, { songId: parent, kind: "remix" })).json()).toMatchObject({
      versionOf: { kind: "remix" },
      version: 3,
    });
    const unlinked = await link(ctx, owner, snippet, null);
    expect(unlinked.json()).toMatchObject({ versionOf: null, version: 4 });
    const after = (await ctx.app.inject({ method: "GET", url: `/api/songs/${snippet}/history` })).json();
    expect(after.items[0]).toMatchObject({
      comment: MESSAGES.versionUnlinked,
      previous: { versionOf: { id: parent, title: "Parent Song", kind: "remix" } },
    });
    expect((await getSong(ctx, parent)).versionCount).toBe(0);
  });

  it("refuses links that would break the one-level rule, and callers who may not edit", async () => {
    const [root, child, third] = await songs(owner, "Root Track", "Child Track", "Third Track");
    const hidden = await song(other, "Hidden Track");
    await hide(hidden);
    expect((await link(ctx, owner, child, { songId: root, kind: "remix" })).statusCode).toBe(200);
    const refused = async (id: string, body: object, message: string) => {
      const res = await link(ctx, owner, id, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.json().error.message).toBe(message);
    };
    await refused(root, { songId: root, kind: "remix" }, MESSAGES.versionOfSelf);
    await refused(third, { songId: child, kind: "remix" }, MESSAGES.versionOfVersion);
    // The cycle root -> child -> root: root has a version, so it cannot become one.
    await refused(root, { songId: third, kind: "alternate" }, MESSAGES.versionHasVersions);
    await refused(third, { songId: "no-such-song", kind: "remix" }, MESSAGES.versionTargetNotFound);
    await refused(third, { songId: hidden, kind: "remix" }, MESSAGES.versionTargetNotFound);
    await refused(third, { songId: root, kind: "bootleg" }, MESSAGES.invalidVersionKind);
    // Someone else's song: only an admin may link to it (issue 24).
    const theirs = await song(other, "Their Track");
    await verify(ctx, theirs);
    const foreign = await link(ctx, owner, third, { songId: theirs, kind: "official" });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error).toMatchObject({
      message: MESSAGES.versionTargetNotYours,
      fields: { songId: MESSAGES.versionTargetNotYours },
    });
    // Owner and admins only: a verified contributor has no review path for links.
    expect((await link(ctx, undefined, third, { songId: root, kind: "remix" })).statusCode).toBe(401);
    expect((await link(ctx, other, third, { songId: root, kind: "remix" })).statusCode).toBe(403);
    const vc = await link(ctx, contributor, third, { songId: root, kind: "remix" });
    expect(vc.statusCode).toBe(403);
    expect(vc.json().error.message).toBe(MESSAGES.editNoPermission);
    expect((await getSong(ctx, third, owner)).version).toBe(1);
    expect((await getSong(ctx, theirs)).versionCount).toBe(0);
  });

  it("lets only the owner of both songs or an admin link, shows pending versions to few, and lets the linked song's owner unlink", async () => {
    // Issue 24: a member linked their pending upload as the "official release" of someone else's verified song.
    const target = await song(other, "Famous Song");
    await verify(ctx, target);
    const fake = await song(owner, "Famous Song (Official)");
    const refused = await link(ctx, owner, fake, { songId: target, kind: "official" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(MESSAGES.versionTargetNotYours);
    expect((await getSong(ctx, fake, owner)).version).toBe(1);
    expect((await getSong(ctx, target, other)).versionCount).toBe(0);

    // An admin may link it; while pending it shows only to admins, the song's owner and the version's own uploader.
    expect((await link(ctx, admin, fake, { songId: target, kind: "official" })).statusCode).toBe(200);
    const versionsAs = async (u?: User) =>
      (
        await ctx.app.inject({
          method: "GET",
          url: `/api/songs/${target}/versions`,
          headers: u ? { cookie: u.cookie } : {},
        })
      )
        .json()
        .items.map((s: { id: string }) => s.id);
    expect(await versionsAs()).toEqual([]);
    expect(await versionsAs(contributor)).toEqual([]);
    expect(await versionsAs(owner)).toEqual([fake]);
    expect(await versionsAs(other)).toEqual([fake]);
    expect(await versionsAs(admin)).toEqual([fake]);
    expect((await getSong(ctx, target)).versionCount).toBe(0);
    expect((await getSong(ctx, target, contributor)).versionCount).toBe(0);
    expect((await getSong(ctx, target, other)).versionCount).toBe(1);
    expect((await getSong(ctx, target, admin)).versionCount).toBe(1);
    // Verified, it is public (the admin's verify clears visitors' cached answers).
    const verified = await ctx.app.inject({
      method: "POST",
      url: `/api/songs/${fake}/verify`,
      headers: { cookie: admin.cookie },
    });
    expect(verified.statusCode).toBe(200);
    expect((await getSong(ctx, target)).versionCount).toBe(1);
    expect(await versionsAs()).toEqual([fake]);

    // Nobody else may unlink it; the owner of the song it is linked to may.
    expect((await link(ctx, contributor, fake, null)).statusCode).toBe(403);
    const unlinked = await link(ctx, other, fake, null);
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(unlinked.json()).toMatchObject({ versionOf: null, lastEditedBy: { id: other.id } });
    expect((await getSong(ctx, target)).versionCount).toBe(0);
    // ...but not link it anywhere: a link needs the version's owner.
    const relink = await link(ctx, other, fake, { songId: target, kind: "official" });
    expect(relink.statusCode).toBe(403);
    expect(relink.json().error.message).toBe(MESSAGES.editNoPermission);
  });

  it("shows one search entry per song with its version count", async () => {
    const [parent, remix, snip] = await songs(
      owner,
      "Moonwalker Anthem",
      "Moonwalker Anthem Remix",
      "Moonwalker Rarity Snippet",
    );
    const [lonely, orphan] = await songs(other, "Moonwalker Orphan Bootleg", "Moonwalker Orphan Parent");
    await verify(ctx, parent, remix, snip, lonely, orphan);
    for (const id of [remix, snip]) await link(ctx, owner, id, { songId: parent, kind: "remix" });
    await link(ctx, other, lonely, { songId: orphan, kind: "snippet" });

    const hits = await search(ctx, "moonwalker");
    expect(hits.filter((s) => s.id === parent)).toHaveLength(1);
    expect(hits.find((s) => s.id === parent)?.versionCount).toBe(2);
    expect(hits.map((s) => s.id)).not.toContain(remix);
    expect(hits.map((s) => s.id)).not.toContain(snip);
    // A search only one version matches finds the song it is a version of.
    expect((await search(ctx, "rarity")).map((s) => s.id)).toEqual([parent]);
    // A version whose song cannot be shown (hidden, or pending) stands for itself.
    expect((await search(ctx, "bootleg")).map((s) => s.id)).toEqual([orphan]);
    await hide(orphan);
    expect((await search(ctx, "bootleg")).map((s) => s.id)).toEqual([lonely]);
    expect((await getSong(ctx, lonely)).versionOf).toBeNull();
    const versions = await ctx.app.inject({ method: "GET", url: `/api/songs/${orphan}/versions` });
    expect(versions.statusCode).toBe(404);
  });

  it("suggests linking an upload whose audio matched another song", async () => {
    const rate = 22_050;
    const track = synthesizeTrack(hashString("Version Match Tune"), 30, rate);
    const first = await upload(
      ctx,
      owner.cookie,
      { title: "Matched Original", artists: ["Version Artist"] },
      { name: "a.wav", data: encodeWav(track, rate) },
    );
    const originalId = first.json().id as string;
    await ctx.app.jobs.drain();
    const res = await upload(
      ctx,
      owner.cookie,
      { title: "Matched Copy", artists: ["Version Artist"], genre: "Pop", allowDuplicateAudio: "true" },
      { name: "b.wav", data: encodeWav(track.subarray(0, rate * 20), rate) },
    );
    expect(res.statusCode).toBe(201);
    const copy = res.json();
    expect(copy.versionSuggestion).toEqual({ songId: originalId, title: "Matched Original" });
    // Only the uploader and admins are offered it; visitors do not even see the pending song.
    expect((await ctx.app.inject({ method: "GET", url: `/api/songs/${copy.id}` })).statusCode).toBe(404);
    expect((await getSong(ctx, copy.id, other)).versionSuggestion).toBeNull();
    expect((await getSong(ctx, copy.id, admin)).versionSuggestion).toMatchObject({ songId: originalId });
    // One click takes it; the offer is gone once linked.
    const linked = await link(ctx, owner, copy.id, { songId: originalId, kind: "snippet" });
    expect(linked.json()).toMatchObject({ versionOf: { id: originalId, kind: "snippet" }, versionSuggestion: null });
    // Someone else's upload of the same audio is not offered to link to it (only an admin may link the two).
    const theirs = await upload(
      ctx,
      other.cookie,
      { title: "Matched Again", artists: ["Version Artist"], genre: "Pop", allowDuplicateAudio: "true" },
      { name: "c.wav", data: encodeWav(track.subarray(0, rate * 20), rate) },
    );
    expect(theirs.statusCode).toBe(201);
    expect(theirs.json().versionSuggestion).toBeNull();
    expect((await getSong(ctx, theirs.json().id, admin)).versionSuggestion).toMatchObject({ songId: originalId });
  }, 60_000);
});
