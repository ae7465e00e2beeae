import type { SuggestionValues } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { formatSuggestionValue, SUGGESTION_FIELDS, suggestionValue } from "./format";

const values = (over: Partial<SuggestionValues>): SuggestionValues =>
  ({ title: "T", artist: "A", genre: "Rap", releaseDate: null, soundcloudUrl: null, ...over }) as SuggestionValues;

describe("an edit suggestion's values as the comparison shows them (issue 37)", () => {
  it("shows leak and file dates as precise as they are known, release dates whole", () => {
    expect(formatSuggestionValue(values({ leakDate: "2019" }), "leakDate")).toBe("2019");
    expect(formatSuggestionValue(values({ fileDate: "2019-06" }), "fileDate")).toBe("Jun 2019");
    expect(formatSuggestionValue(values({ leakDate: "2019-06-21" }), "leakDate")).toBe("Jun 21, 2019");
    expect(formatSuggestionValue(values({ releaseDate: "2025-03-05" }), "releaseDate")).toBe("Mar 5, 2025");
  });

  it("compares and shows links, which entries from before issue 37 do not have", () => {
    expect(SUGGESTION_FIELDS.map((f) => f.key)).toContain("links");
    const two = values({ links: ["https://a.example/1", "https://b.example/2"] });
    expect(suggestionValue(two, "links")).toBe("https://a.example/1, https://b.example/2");
    expect(formatSuggestionValue(two, "links")).toBe("https://a.example/1, https://b.example/2");
    expect(suggestionValue(values({ links: [] }), "links")).toBeNull();
    expect(suggestionValue(values({}), "links")).toBeNull();
  });
});
