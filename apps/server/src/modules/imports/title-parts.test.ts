import { DEFAULT_TAG_LEGEND } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { callWithin } from "../../test/bounded-call.js";
import { parseTagsCell, splitArtists, splitNames, splitTitle, tagsOf } from "./title-parts.js";

/** A title's parts with the tags its marks mean in the default legend. */
const parts = (raw: string) => {
  const p = splitTitle(raw);
  return { ...p, tags: tagsOf(p.marks, DEFAULT_TAG_LEGEND).value };
};

describe("title parts", () => {
  it("splits names, features out of artists, and feat./prod. out of titles", () => {
    expect(splitNames("A, B & C / D x E; a")).toEqual(["A", "B", "C", "D", "E"]);
    expect(splitArtists("Kanye West feat. Kid Cudi & Mr Hudson")).toEqual({
      artists: ["Kanye West"],
      features: ["Kid Cudi", "Mr Hudson"],
    });
    expect(splitTitle("Night Drive 🌙 (feat. Luna) [prod. Kay & Jay]")).toEqual({
      title: "Night Drive",
      features: ["Luna"],
      producers: ["Kay", "Jay"],
      references: [],
      aliases: [],
      versionLabel: null,
      marks: ["🌙"],
    });
  });

  it("takes marks, aliases, reference credits and version labels out of titles (issue 27)", () => {
    expect(parts("⭐ Tidewater (feat. Orrin Vale) (prod. Kessler & Mayo)")).toMatchObject({
      title: "Tidewater",
      features: ["Orrin Vale"],
      producers: ["Kessler", "Mayo"],
      tags: ["best"],
    });
    expect(parts("🏆 Undertow (Alt: Riptide) (prod. Kessler)")).toMatchObject({
      title: "Undertow",
      aliases: ["Riptide"],
      tags: ["grail"],
    });
    expect(parts("Night Ferry (ref. Dax Moreno)")).toMatchObject({ title: "Night Ferry", references: ["Dax Moreno"] });
    expect(parts("Lantern Song [V2]")).toMatchObject({ title: "Lantern Song", versionLabel: "V2" });
    expect(parts("✨ Paper Moons")).toMatchObject({ title: "Paper Moons", tags: ["special"] });
    expect(parts("🗑️ Filler Track")).toMatchObject({ title: "Filler Track", tags: ["worst"] });
    expect(parts("Coast [aka Night Swim, Low Tide] (Version 3)")).toMatchObject({
      title: "Coast",
      aliases: ["Night Swim", "Low Tide"],
      versionLabel: "V3",
    });
    // Tags that are part of the title stay; an alternate version is not an alias.
    expect(parts("Sunday (Alternate Version)")).toMatchObject({ title: "Sunday (Alternate Version)", aliases: [] });
    expect(parts("Refrain (Demo)")).toMatchObject({ title: "Refrain (Demo)", references: [] });
    // A mark the legend does not know is left out of the title, and said.
    expect(tagsOf(["🦄"], DEFAULT_TAG_LEGEND)).toEqual({
      value: [],
      warning: "Mark 🦄 is not in the legend: left out",
    });
    expect(tagsOf(["🦄"], { ...DEFAULT_TAG_LEGEND, "🦄": "wanted" })).toEqual({ value: ["wanted"] });
    expect(parseTagsCell("Best of, Grail, ✨", DEFAULT_TAG_LEGEND)).toEqual({ value: ["best", "grail", "special"] });
  });

  it("reads the medals trackers mark their most wanted songs with as wanted (issue 37)", () => {
    expect(parts("🥇 Undertow")).toMatchObject({ title: "Undertow", marks: ["🥇"], tags: ["wanted"] });
    expect(parts("🥈 Glass Tide")).toMatchObject({ title: "Glass Tide", tags: ["wanted"] });
    expect(parts("🥉 Night Ferry")).toMatchObject({ title: "Night Ferry", tags: ["wanted"] });
    // The marks of a real tracker's name cell, on several lines, with a mark the default legend leaves unknown.
    expect(parts("⭐ Typical [V2]\n(prod. Dez Wright)")).toMatchObject({
      title: "Typical",
      producers: ["Dez Wright"],
      versionLabel: "V2",
      tags: ["best"],
    });
    expect(tagsOf(["🥇", "🤖"], DEFAULT_TAG_LEGEND)).toEqual({
      value: ["wanted"],
      warning: "Mark 🤖 is not in the legend: left out",
    });
  });

  // Issue 24: "a" + 3,000 spaces + "b" in an artists cell backtracked cubically through the name split and froze
  // the server for 25 s during a preview. Each value parser gets 30 KB cells built to make a backtracking regex
  // try every split of a run (blank runs before a word that never comes, unclosed brackets), on a worker thread
  // that is ended at the deadline: linear work is a few milliseconds, the old patterns never finished.
  it("splits 30 KB adversarial cells in linear time", async () => {
    const module = new URL("./title-parts.ts", import.meta.url);
    const spaces = " ".repeat(30_000);
    const cases: [string, string, unknown][] = [
      ["splitNames", `a${spaces}b`, ["a b"]],
      ["splitNames", `a${" \t".repeat(15_000)}x`, ["a x"]],
      ["splitNames", `a${spaces}x${spaces}b`, ["a", "b"]],
      ["splitNames", ",".repeat(30_000), []],
      ["splitArtists", `a${spaces}b`, { artists: ["a b"], features: [] }],
      ["splitArtists", `a${" feat".repeat(6_000)}`, undefined],
      [
        "splitTitle",
        `a${spaces}b`,
        { title: "a b", features: [], producers: [], references: [], aliases: [], versionLabel: null, marks: [] },
      ],
      ["splitTitle", `a${"(alt: b".repeat(4_000)}`, undefined],
      ["splitTitle", `a${"[ref. ".repeat(5_000)}`, undefined],
      ["splitTitle", `a${"(v".repeat(10_000)}`, undefined],
      ["splitTitle", "⭐".repeat(10_000), undefined],
      ["splitTitle", "🥇".repeat(10_000), undefined],
      ["splitTitle", `a${"(feat. b".repeat(4_000)}`, undefined],
      ["splitTitle", `a${"[prod by ".repeat(3_000)}`, undefined],
    ];
    for (const [fn, cell, expected] of cases) {
      const { value, ms } = await callWithin(module, fn, [cell], 3_000);
      if (expected !== undefined) expect(value, fn).toEqual(expected);
      expect(ms, `${fn} on ${JSON.stringify(cell.slice(0, 20))}…`).toBeLessThan(1_000);
    }
  }, 60_000);
});
