import { expect, it } from "vitest";
import { type User, upload, useMembers, verify } from "../../test/fixtures.js";
import { describeEachDialect, useTestApp } from "../../test/harness.js";

type Found = { songs: { id: string; title: string }[]; artists: { id: string; name: string; trackCount: number }[] };

// Issue 26: search as people type (the last word a prefix, typos in every word, transpositions), over titles,
// credited and featured artists and eras; kept in step with every change (decision 024).
describeEachDialect("search engine", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, admin, boss } = useMembers(ctx, {
    owner: "owner-se@example.com",
    admin: ["admin-se@example.com", "admin"],
    boss: ["boss-se@example.com", "super_admin"],
  });
  const ids: Record<string, string> = {};
  const add = async (u: User, title: string, artists: string[], extra: Record<string, string> = {}) => {
    const res = await upload(ctx, u.cookie, { title, artists, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    ids[title] = res.json().id;
    return ids[title] as string;
  };
  const find = async (q: string): Promise<Found> =>
    (await ctx.app.inject({ method: "GET", url: `/api/search?q=${encodeURIComponent(q)}` })).json();
  const titles = async (q: string) => (await find(q)).songs.map((s) => s.title);
  const suggest = async (q: string) =>
    (await ctx.app.inject({ method: "GET", url: `/api/search/suggest?q=${encodeURIComponent(q)}` })).json();

  it("finds titles typed partway, with a typo in each word, transposed letters, and accents dropped", async () => {
    await add(owner, "Midnight Shadows", ["Nova Reyes"]);
    await add(owner, "Saltwater Letters", ["Mara Vance", "DJ Ketsu"]);
    await add(owner, "Déjà Vu Tape", ["Beyoncé"], { era: "Lemonade Sessions" });
    await add(owner, "Pending Only", ["Nova Reyes"]);
    await verify(ctx, ids["Midnight Shadows"] ?? "", ids["Saltwater Letters"] ?? "", ids["Déjà Vu Tape"] ?? "");
    expect((await titles("midnight sh"))[0]).toBe("Midnight Shadows");
    expect((await titles("midnigt shadwos"))[0]).toBe("Midnight Shadows");
    expect((await titles("saltwatr lett"))[0]).toBe("Saltwater Letters");
    expect((await titles("deja vu"))[0]).toBe("Déjà Vu Tape");
    // By a featured (second credited) artist with title words, and by era.
    expect((await titles("ketsu saltwater"))[0]).toBe("Saltwater Letters");
    expect((await titles("lemonade sess"))[0]).toBe("Déjà Vu Tape");
    // Pending songs are not found by visitors.
    expect(await titles("pending only")).toEqual([]);
    expect(await titles("zzqxv")).toEqual([]);
  });

  it("names artists above songs, typos allowed, with their public songs counted", async () => {
    const found = await find("nova reye");
    expect(found.artists[0]).toMatchObject({ name: "Nova Reyes", trackCount: 1 });
    expect((await find("beyonse")).artists[0]?.name).toBe("Beyoncé");
  });

  it("suggests songs and artists while typing", async () => {
    const res = await suggest("saltw");
    expect(res.songs[0]).toMatchObject({ id: ids["Saltwater Letters"], title: "Saltwater Letters" });
    expect(res.songs[0].artists.map((a: { name: string }) => a.name)).toEqual(["Mara Vance", "DJ Ketsu"]);
    // Built from the index alone, the cover is the one the song's card names.
    const card = (await ctx.app.inject({ method: "GET", url: `/api/songs/${ids["Saltwater Letters"]}` })).json();
    expect(res.songs[0].coverUrl).toBe(card.coverUrl);
    expect((await suggest("mara")).artists[0]).toMatchObject({ name: "Mara Vance" });
    const bad = await ctx.app.inject({ method: "GET", url: "/api/search/suggest?q=" });
    expect(bad.statusCode).toBe(400);
  });

  it("offers an artist found by some of the words only when credited on a song found", async () => {
    await add(owner, "Pier Lights", ["Orrin Vale"]);
    await add(owner, "Static Bloom", ["Lights Out Collective"]);
    await verify(ctx, ids["Pier Lights"] ?? "", ids["Static Bloom"] ?? "");
    const names = (found: { artists: { name: string }[] }) => found.artists.map((a) => a.name);
    // "ligh" alone finds the collective; with "pier" the song matches every word and the collective does not.
    expect(names(await find("ligh"))).toContain("Lights Out Collective");
    const typed = await suggest("pier ligh");
    expect(typed.songs[0]?.title).toBe("Pier Lights");
    expect(names(typed)).not.toContain("Lights Out Collective");
    expect(names(await find("pier ligh"))).not.toContain("Lights Out Collective");
    // Orrin Vale matches "orrin" only, but is credited on the song found.
    expect(names(await suggest("pier orrin"))).toContain("Orrin Vale");
  });

  it("answers with cards as they are now, whichever query finds them (shared cards are dropped on changes)", async () => {
    const id = ids["Saltwater Letters"] ?? "";
    const genreOf = async (q: string) =>
      ((await find(q)).songs as unknown as { id: string; genre: string }[]).find((s) => s.id === id)?.genre;
    const before = await genreOf("saltwater letters");
    expect(before).toBeDefined();
    const edited = await ctx.app.inject({
      method: "PATCH",
      url: `/api/songs/${id}`,
      headers: { cookie: admin.cookie },
      payload: { title: "Saltwater Letters", artists: ["Mara Vance", "DJ Ketsu"], genre: "Country", comment: "genre" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    // Another query, so no shared answer serves it: the card itself must be the new one.
    expect(await genreOf("saltwatr lett")).toBe("Country");
  });

  it("keeps in step with edits, hiding, verification and deletion", async () => {
    const id = ids["Midnight Shadows"] ?? "";
    const edited = await ctx.app.inject({
      method: "PATCH",
      url: `/api/songs/${id}`,
      headers: { cookie: admin.cookie },
      payload: { title: "Moonlit Harbour", artists: ["Nova Reyes"], genre: "Pop", comment: "retitled" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await titles("midnight shadows")).toEqual([]);
    expect((await titles("moonlit harb"))[0]).toBe("Moonlit Harbour");
    const hide = (hidden: boolean) =>
      ctx.app.inject({
        method: "PUT",
        url: `/api/songs/${id}/hidden`,
        headers: { cookie: admin.cookie },
        payload: { hidden },
      });
    expect((await hide(true)).statusCode).toBe(200);
    expect(await titles("moonlit harbour")).toEqual([]);
    expect((await hide(false)).statusCode).toBe(200);
    expect(await titles("moonlit harbour")).toEqual(["Moonlit Harbour"]);
    await verify(ctx, ids["Pending Only"] ?? "");
    expect(await titles("pending only")).toEqual(["Pending Only"]);
    expect((await find("nova reyes")).artists[0]).toMatchObject({ name: "Nova Reyes", trackCount: 2 });
    const gone = await ctx.app.inject({ method: "DELETE", url: `/api/songs/${id}`, headers: { cookie: boss.cookie } });
    expect(gone.statusCode, gone.body).toBeLessThan(300);
    expect(await titles("moonlit harbour")).toEqual([]);
    expect((await find("nova reyes")).artists[0]).toMatchObject({ trackCount: 1 });
  });
});
