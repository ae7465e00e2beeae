import { LEAK_LIMITS } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { callWithin } from "../../test/bounded-call.js";
import { isBlank, parseAvailability, parseGenre, parseLength, parseLinks, parseQuality } from "./cell-words.js";

describe("cell words", () => {
  it("knows the cells that say nothing", () => {
    for (const raw of ["", " ", "-", "?", "??", "N/A", "none", "Unknown", "TBA"]) expect(isBlank(raw), raw).toBe(true);
    expect(isBlank("Full")).toBe(false);
  });

  it("maps genres, availabilities and qualities from tracker wording", () => {
    expect(parseGenre("hip-hop")).toEqual({ value: "Rap" });
    expect(parseGenre("ROCK")).toEqual({ value: "Rock" });
    expect(parseGenre("")).toEqual({ value: "Other" });
    expect(parseGenre("Vaporwave")).toEqual({
      value: "Other",
      warning: 'Unknown genre "Vaporwave": imported as Other',
    });
    expect(parseAvailability("OG File").value).toBe("og_file");
    expect(parseAvailability("OG").value).toBe("og_file");
    expect(parseAvailability("Snippet (Recording)")).toEqual({ value: "snippet", quality: "recording" });
    expect(parseAvailability("Full").value).toBe("full");
    expect(parseAvailability("Partial").value).toBe("partial");
    expect(parseAvailability("Rap").warning).toBe('Unknown availability "Rap": left empty');
    // Issue 27: the values of a tracker's "Available Length" and "Quality" columns, each kept as itself.
    for (const [raw, want] of [
      ["Beat Only", "beat_only"],
      ["Tagged", "tagged"],
      ["Confirmed", "confirmed"],
      ["Rumored", "rumored"],
      ["Rumoured", "rumored"],
    ] as const)
      expect(parseAvailability(raw).value, raw).toBe(want);
    expect(parseQuality("CD Quality").value).toBe("cd_quality");
    expect(parseQuality("CDQ").value).toBe("cd_quality");
    expect(parseQuality("High Quality").value).toBe("high");
    expect(parseQuality("Low Quality").value).toBe("low");
    expect(parseQuality("Not Available").value).toBe("not_available");
    expect(parseQuality("HQ").value).toBe("high");
    expect(parseQuality("LQ").value).toBe("low");
    expect(parseQuality("Lossless").value).toBe("lossless");
    expect(parseQuality("Recording").value).toBe("recording");
    expect(parseQuality("Snippet (recording)").value).toBe("recording");
    expect(parseQuality("meh").warning).toContain("Unknown quality");
    expect(parseLength("3:45")).toEqual({ value: 225 });
    expect(parseLength("1:02:03")).toEqual({ value: 3723 });
    expect(parseLength("3m")).toMatchObject({ value: null });
  });

  it("reads the availability words trackers use (issue 37)", () => {
    for (const [raw, want] of [
      ["Stem Bounce", { value: "stem_bounce" }],
      ["Stem Bounces", { value: "stem_bounce" }],
      // "Stems" alone are the session's own files.
      ["Stems", { value: "og_file" }],
      ["Unavailable", { value: "confirmed" }],
      ["Not Available", { value: "confirmed" }],
      ["None Available", { value: "confirmed" }],
      ["OG File(s)", { value: "og_file" }],
      ["OG Files", { value: "og_file" }],
      ["CDQ", { value: "full", quality: "cd_quality" }],
      ["Full (HQ)", { value: "full", quality: "high" }],
      ["Snippet(s)", { value: "snippet" }],
      ["Snippet (LQ)", { value: "snippet", quality: "low" }],
    ] as const)
      expect(parseAvailability(raw), raw).toEqual(want);
    expect(parseAvailability("Conflicting Sources")).toEqual({
      value: null,
      warning: 'Unknown availability "Conflicting Sources": left empty',
    });
  });

  it("reads OG in a quality cell as an OG file, saying nothing of the quality (issue 37)", () => {
    expect(parseQuality("OG")).toEqual({ value: null, availability: "og_file" });
    expect(parseQuality("OG File")).toEqual({ value: null, availability: "og_file" });
    expect(parseQuality("OG Files")).toEqual({ value: null, availability: "og_file" });
    // A quality named beside it still wins.
    expect(parseQuality("OG (CDQ)")).toEqual({ value: "cd_quality" });
  });

  it("keeps every link of a cell, in order, once (issue 37)", () => {
    const a = "https://pillowcase.su/f/2a11dc7174e2ffc43f45f192fce2cf6d";
    const b = "https://pillowcase.su/f/91b5e4011ab048e497b9154c110e14e8";
    const c = "http://example.org/a(1)";
    expect(parseLinks(`${a} \n${b}`)).toEqual({ value: [a, b] });
    expect(parseLinks(`${a}, ${b}; ${c}`)).toEqual({ value: [a, b, c] });
    expect(parseLinks(`${a} ${b} ${a}`)).toEqual({ value: [a, b] });
    expect(parseLinks(`${a}.`)).toEqual({ value: [a] });
    expect(parseLinks(`(see ${a}).`)).toEqual({ value: [a], warning: 'Links: "(see" is not a link: left out' });
    // A cell reading "Link" whose hyperlink says where; the cell's own URLs come first.
    expect(parseLinks("Link", [b])).toEqual({ value: [b] });
    expect(parseLinks(a, [b, a])).toEqual({ value: [a, b] });
    expect(parseLinks("", [])).toEqual({ value: [] });
    expect(parseLinks("N/A")).toEqual({ value: [] });
  });

  it("leaves out what is no link, too long or too many, and says so", () => {
    const link = (i: number) => `https://pillowcase.su/f/${i}`;
    expect(parseLinks("Pillowcase")).toEqual({ value: [], warning: 'Links: "Pillowcase" is not a link: left out' });
    expect(parseLinks("Link Needed")).toEqual({ value: [], warning: 'Links: "Link Needed" is not a link: left out' });
    expect(parseLinks(`${link(1)}\nN/A`)).toEqual({
      value: [link(1)],
      warning: 'Links: "N/A" is not a link: left out',
    });
    const many = Array.from({ length: 12 }, (_, i) => link(i));
    expect(parseLinks(many.join("\n"))).toEqual({
      value: many.slice(0, LEAK_LIMITS.links),
      warning: `Links: only the first ${LEAK_LIMITS.links} of 12 links are kept`,
    });
    const long = `https://x.io/${"a".repeat(LEAK_LIMITS.link)}`;
    expect(parseLinks(`${long} ${link(1)}`)).toEqual({
      value: [link(1)],
      warning: `Links: 1 link(s) longer than ${LEAK_LIMITS.link} characters, left out`,
    });
    expect(parseLinks("Link", ["mailto:a@b.c", "https://user:pw@x.io/"])).toEqual({
      value: [],
      warning: "Links: 2 link(s) not an http(s) address, left out",
    });
    expect(parseLinks("ftp://x.io/a")).toMatchObject({ value: [] });
  });

  // Issue 24's adversarial cells (see title-parts.test.ts), for the word and link patterns.
  it("parses 30 KB and 10,000-character hostile cells in linear time", async () => {
    const module = new URL("./cell-words.ts", import.meta.url);
    const spaces = " ".repeat(30_000);
    const cases: [string, unknown[]][] = [
      ["parseGenre", [`${spaces}x`]],
      ["parseAvailability", [`stem${spaces}x`]],
      ["parseQuality", [`og${spaces}x`]],
      // Hostile links cells of 10,000 characters (the longest cell a file may have).
      ["parseLinks", ["http://".repeat(1_428)]],
      ["parseLinks", [`https://a${")".repeat(9_990)}`]],
      ["parseLinks", [`https://a${"(".repeat(5_000)}${")".repeat(4_990)}`]],
      ["parseLinks", ["https://a ".repeat(1_000)]],
      ["parseLinks", [`https://a${".".repeat(9_990)}`]],
      ["parseLinks", [`${"h".repeat(9_000)}${"https:/".repeat(140)}`]],
      ["parseLinks", [",;".repeat(5_000), ["https://a.io/"]]],
    ];
    for (const [fn, args] of cases) {
      const { ms } = await callWithin(module, fn, args, 3_000);
      expect(ms, `${fn} on ${JSON.stringify(String(args[0]).slice(0, 20))}…`).toBeLessThan(1_000);
    }
  }, 60_000);
});
