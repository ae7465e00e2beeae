import { expect, it } from "vitest";
import type { App } from "../../http.js";
import { upload, useMembers, verify } from "../../test/fixtures.js";
import { createSiblingApp, describeEachDialect, useTestApp } from "../../test/harness.js";

type Named = { artists: { id: string; name: string; trackCount: number }[] };

// Issue 38: after a restart, search and suggestions named artists known only from a pending upload's credits (name,
// id, 0 tracks), because the index build took every artist account. The sitemap and the page heads treat such names
// as not public; so does search, at build and as songs change.
describeEachDialect("search names only artists with a public song", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, admin, superAdmin } = useMembers(ctx, {
    owner: "owner-names@example.com",
    admin: ["admin-names@example.com", "admin"],
    superAdmin: ["super-names@example.com", "super_admin"],
  });
  const names = async (app: App, q: string) => {
    const enc = encodeURIComponent(q);
    const found = (await app.inject({ method: "GET", url: `/api/search?q=${enc}` })).json() as Named;
    const offered = (await app.inject({ method: "GET", url: `/api/search/suggest?q=${enc}` })).json() as Named;
    return { search: found.artists.map((a) => a.name), suggest: offered.artists.map((a) => a.name) };
  };
  const none = { search: [], suggest: [] };
  const hide = (id: string, hidden: boolean) =>
    ctx.app.inject({
      method: "PUT",
      url: `/api/songs/${id}/hidden`,
      headers: { cookie: admin.cookie },
      payload: { hidden },
    });
  let pending = "";
  let hidden = "";

  it("does not name them when the index is built, whoever asks", async () => {
    const add = async (title: string, artist: string) =>
      (await upload(ctx, owner.cookie, { title, artists: [artist] })).json().id as string;
    pending = await add("Quiet Harbour", "Zephyrine Vox");
    hidden = await add("Buried Tune", "Marrow Quill");
    const shown = await add("Open Window", "Lumen Parade");
    await verify(ctx, hidden, shown);
    expect((await hide(hidden, true)).statusCode).toBe(200);
    // The first search builds the index from the database, as after a restart.
    expect(await names(ctx.app, "zephyrine vox")).toEqual(none);
    expect(await names(ctx.app, "marrow qui")).toEqual(none);
    expect(await names(ctx.app, "lumen parade")).toEqual({ search: ["Lumen Parade"], suggest: ["Lumen Parade"] });
    // Signed in, the same.
    const signedIn = await ctx.app.inject({
      method: "GET",
      url: "/api/search?q=zephyrine",
      headers: { cookie: owner.cookie },
    });
    expect(signedIn.json().artists).toEqual([]);
  });

  it("names them once a song of theirs is public, and no more once none is", async () => {
    await verify(ctx, pending);
    // (A query not asked before: the fixture's verification is no song event, so shared answers are not dropped.)
    expect(await names(ctx.app, "zephyrine v")).toEqual({ search: ["Zephyrine Vox"], suggest: ["Zephyrine Vox"] });
    expect((await hide(hidden, false)).statusCode).toBe(200);
    expect(await names(ctx.app, "marrow quill")).toEqual({ search: ["Marrow Quill"], suggest: ["Marrow Quill"] });
    expect((await hide(hidden, true)).statusCode).toBe(200);
    expect(await names(ctx.app, "marrow quill")).toEqual(none);
    expect((await hide(pending, true)).statusCode).toBe(200);
    expect(await names(ctx.app, "zephyrine")).toEqual(none);
    // A restart builds the same answer from the database.
    const restarted = await createSiblingApp(ctx);
    try {
      expect(await names(restarted.app, "zephyrine")).toEqual(none);
      expect(await names(restarted.app, "marrow quill")).toEqual(none);
      expect((await names(restarted.app, "lumen")).search).toEqual(["Lumen Parade"]);
    } finally {
      await restarted.close();
    }
  });

  it("still finds a public artist behind many better-matching names known only from pending credits", async () => {
    for (let i = 0; i < 30; i++)
      await upload(ctx, owner.cookie, { title: `Crowd Song ${i}`, artists: [`Sable Crowd ${i}`] });
    const song = (await upload(ctx, owner.cookie, { title: "Sable Real", artists: ["Sable Crowder"] })).json();
    await verify(ctx, song.id);
    // Built from the database, the index holds all 31 artists; the 30 pending ones match "crowd" as typed, the
    // public one only as a completion, and are met first.
    const restarted = await createSiblingApp(ctx);
    try {
      const only = { search: ["Sable Crowder"], suggest: ["Sable Crowder"] };
      expect(await names(restarted.app, "sable crowd")).toEqual(only);
    } finally {
      await restarted.close();
    }
  });

  it("gives a super admin's merge search every artist, those known only from pending credits too", async () => {
    const placeholder = (
      await upload(ctx, owner.cookie, { title: "Held Back", artists: ["Ondine Placeholder"] })
    ).json();
    const ask = (cookie: string | undefined) =>
      ctx.app.inject({
        method: "GET",
        url: "/api/admin/artists/search?q=ondine",
        headers: cookie ? { cookie } : {},
      });
    const found = await ask(superAdmin.cookie);
    expect(found.statusCode).toBe(200);
    expect((found.json() as Named).artists).toEqual([
      expect.objectContaining({ id: placeholder.artists[0].id, name: "Ondine Placeholder", trackCount: 0 }),
    ]);
    // Nobody else: not a member, not an admin without the super admin's role, not a visitor.
    expect((await ask(owner.cookie)).statusCode).toBe(403);
    expect((await ask(admin.cookie)).statusCode).toBe(403);
    expect((await ask(undefined)).statusCode).toBe(401);
    // The public search still does not name it.
    expect(await names(ctx.app, "ondine placeholder")).toEqual(none);
  });
});
