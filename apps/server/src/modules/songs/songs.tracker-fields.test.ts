import { MESSAGES, type Song } from "@unheard/shared";
import { expect, it } from "vitest";
import { upload, useMembers } from "../../test/fixtures.js";
import { describeEachDialect, useTestApp } from "../../test/harness.js";

// Issue 27: the tracker details a song carries beyond issue 16's leak details, through upload, edit and history.
describeEachDialect("songs: tracker details", (dialect) => {
  const ctx = useTestApp(dialect);
  const { owner, admin } = useMembers(ctx, {
    owner: "owner-tf@example.com",
    admin: ["admin-tf@example.com", "admin"],
  });
  const get = async (id: string): Promise<Song> =>
    (await ctx.app.inject({ method: "GET", url: `/api/songs/${id}`, headers: { cookie: owner.cookie } })).json();
  let id = "";

  it("keeps references, aliases, the version label, tags, file date and track length from an upload", async () => {
    const res = await upload(ctx, owner.cookie, {
      title: "Undertow",
      artists: ["Mara Quill"],
      references: "Dax Moreno",
      aliases: "Riptide, Low Water",
      versionLabel: "V2",
      tags: "grail,best",
      fileDate: "2019-06-02",
      trackLength: "4:05",
      availability: "beat_only",
      quality: "cd_quality",
    });
    expect(res.statusCode, res.body).toBe(201);
    id = res.json().id;
    expect(await get(id)).toMatchObject({
      references: ["Dax Moreno"],
      aliases: ["Riptide", "Low Water"],
      versionLabel: "V2",
      // In the product's order, whatever the order sent.
      tags: ["best", "grail"],
      fileDate: "2019-06-02",
      trackLength: 245,
      availability: "beat_only",
      quality: "cd_quality",
    });
  });

  it("refuses bad values with a clear message and changes nothing", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ trackLength: "four minutes" }, MESSAGES.invalidTrackLength],
      [{ trackLength: "3:75" }, MESSAGES.invalidTrackLength],
      [{ tags: "best,favourite" }, MESSAGES.invalidTag],
      [{ fileDate: "2019-02-30" }, MESSAGES.invalidFileDate],
      [{ fileDate: "2999-01-01" }, MESSAGES.futureFileDate],
      [{ versionLabel: "V".repeat(31) }, MESSAGES.versionLabelTooLong],
      [{ availability: "leaked" }, MESSAGES.invalidAvailability],
    ];
    for (const [extra, message] of cases) {
      const res = await upload(ctx, owner.cookie, { title: "Bad Values", artists: ["Mara Quill"], ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const found = (
      await ctx.app.inject({
        method: "GET",
        url: "/api/songs?feed=newest&status=pending",
        headers: { cookie: owner.cookie },
      })
    ).json();
    expect(JSON.stringify(found)).not.toContain("Bad Values");
  });

  it("edits them, and the history keeps what they were", async () => {
    const before = await get(id);
    const edited = await ctx.app.inject({
      method: "PATCH",
      url: `/api/songs/${id}`,
      headers: { cookie: admin.cookie },
      payload: {
        title: "Undertow",
        artists: ["Mara Quill"],
        genre: before.genre,
        references: [],
        aliases: ["Riptide"],
        versionLabel: "V3",
        tags: ["wanted"],
        fileDate: null,
        trackLength: "1:02:03",
        comment: "tracker details",
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await get(id)).toMatchObject({
      references: [],
      aliases: ["Riptide"],
      versionLabel: "V3",
      tags: ["wanted"],
      fileDate: null,
      trackLength: 3723,
    });
    const history = (
      await ctx.app.inject({ method: "GET", url: `/api/songs/${id}/history`, headers: { cookie: admin.cookie } })
    ).json();
    expect(history.items[0].previous).toMatchObject({
      references: ["Dax Moreno"],
      aliases: ["Riptide", "Low Water"],
      versionLabel: "V2",
      tags: ["best", "grail"],
      fileDate: "2019-06-02",
      trackLength: 245,
    });
  });
});
