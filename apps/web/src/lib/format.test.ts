import { MESSAGES } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { formatDate, formatReleaseDate, formatTimestamp } from "./format";

describe("date formatting without date-fns", () => {
  it("shows a release day as that calendar day, 'MMM d, yyyy'", () => {
    expect(formatReleaseDate("2025-03-05")).toBe("Mar 5, 2025");
    expect(formatReleaseDate("2024-12-31")).toBe("Dec 31, 2024");
  });

  it("falls back on missing, malformed or impossible dates", () => {
    expect(formatReleaseDate(null)).toBe(MESSAGES.releaseDateUnknown);
    expect(formatReleaseDate("2025-02-30")).toBe(MESSAGES.releaseDateUnknown);
    expect(formatReleaseDate("2025-3-5")).toBe(MESSAGES.releaseDateUnknown);
    expect(formatTimestamp("soon")).toBe(MESSAGES.dateNotSet);
    expect(formatTimestamp(undefined, "")).toBe("");
  });

  it("shows an ISO timestamp as its local day", () => {
    const iso = new Date(2025, 0, 9, 15, 30).toISOString();
    expect(formatTimestamp(iso)).toBe("Jan 9, 2025");
    expect(formatTimestamp("2025-07-04")).toBe("Jul 4, 2025");
    expect(formatDate(new Date(2023, 10, 1))).toBe("Nov 1, 2023");
  });
});
