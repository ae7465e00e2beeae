import { MESSAGES } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import {
  formatDate,
  formatDateTime,
  formatPartialDate,
  formatReleaseDate,
  formatTimeAgo,
  formatTimestamp,
  linkParts,
  partialDateOrder,
} from "./format";

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

describe("dates as precise as they are known (issue 37)", () => {
  it("shows a year, a month or a day", () => {
    expect(formatPartialDate("2019")).toBe("2019");
    expect(formatPartialDate("2019-06")).toBe("Jun 2019");
    expect(formatPartialDate("2019-06-05")).toBe("Jun 5, 2019");
  });

  it("falls back on anything else", () => {
    expect(formatPartialDate(null, "")).toBe("");
    expect(formatPartialDate("2019-13", "?")).toBe("?");
    expect(formatPartialDate("19", "?")).toBe("?");
    expect(formatPartialDate("2019-06-31", "?")).toBe("?");
  });

  it("orders a year before its months and a month before its days", () => {
    const dates = ["2019-07", "2019-06-05", "2018-12-31", "2019", "2019-06", "2020"];
    const sorted = [...dates].sort((a, b) => (partialDateOrder(a) ?? 0) - (partialDateOrder(b) ?? 0));
    expect(sorted).toEqual(["2018-12-31", "2019", "2019-06", "2019-06-05", "2019-07", "2020"]);
    expect(partialDateOrder("Summer 2019")).toBeNull();
    expect(partialDateOrder(null)).toBeNull();
  });
});

describe("relative times", () => {
  const now = Date.parse("2025-03-10T12:00:00.000Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();

  it("says how long ago in words, and the day after a month", () => {
    expect(formatTimeAgo(ago(10_000), now)).toBe("just now");
    expect(formatTimeAgo(ago(-60_000), now)).toBe("just now");
    expect(formatTimeAgo(ago(50_000), now)).toBe("1 min ago");
    expect(formatTimeAgo(ago(5 * 60_000 + 20_000), now)).toBe("5 min ago");
    expect(formatTimeAgo(ago(60 * 60_000), now)).toBe("1 hour ago");
    expect(formatTimeAgo(ago(3 * 3600_000 + 59 * 60_000), now)).toBe("3 hours ago");
    expect(formatTimeAgo(ago(24 * 3600_000), now)).toBe("1 day ago");
    expect(formatTimeAgo(ago(29 * 24 * 3600_000), now)).toBe("29 days ago");
    const old = new Date(2024, 0, 9, 15, 30);
    expect(formatTimeAgo(old.toISOString(), now)).toBe("Jan 9, 2024");
    expect(formatTimeAgo("yesterday", now)).toBe("");
  });

  it("gives the exact local date and time", () => {
    expect(formatDateTime(new Date(2025, 2, 5, 16, 7).toISOString())).toBe("Mar 5, 2025, 4:07 PM");
    expect(formatDateTime(new Date(2025, 2, 5, 0, 30).toISOString())).toBe("Mar 5, 2025, 12:30 AM");
    expect(formatDateTime("soon", "?")).toBe("?");
  });
});

describe("a link as it is shown", () => {
  it("puts its host first, without www, and keeps the rest to tell links apart", () => {
    expect(linkParts("https://www.pixeldrain.com/u/abc?x=1#t")).toEqual({
      host: "pixeldrain.com",
      rest: "/u/abc?x=1#t",
    });
    expect(linkParts("http://example.org:8080/")).toEqual({ host: "example.org:8080", rest: "" });
  });

  it("gives none for what is not a web address", () => {
    expect(linkParts("javascript:alert(1)")).toBeNull();
    expect(linkParts("not a link")).toBeNull();
  });
});
