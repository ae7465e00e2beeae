import { describe, expect, it } from "vitest";
import { callWithin } from "../../test/bounded-call.js";
import { parseDate, parseSpan } from "./cell-dates.js";

const read = (raw: string) => parseDate(raw, "Leak date");

describe("cell dates", () => {
  it("reads the documented full date formats", () => {
    for (const [raw, want] of [
      ["2021-01-05", "2021-01-05"],
      ["2021/1/5", "2021-01-05"],
      ["2021-01-05T10:00:00Z", "2021-01-05"],
      ["01/05/2021", "2021-01-05"],
      ["13/02/2021", "2021-02-13"],
      ["1/5/21", "2021-01-05"],
      ["05.01.2021", "2021-01-05"],
      ["Jan 5, 2021", "2021-01-05"],
      ["January 5th 2021", "2021-01-05"],
      ["Feb 24, 2014", "2014-02-24"],
      ["5 Jan 2021", "2021-01-05"],
      ["5th of June 2021", "2021-06-05"],
      ["44201", "2021-01-05"],
      ["  Jan   5,   2021 ", "2021-01-05"],
    ] as const) {
      expect(read(raw), raw).toEqual({ value: want });
    }
    expect(read("")).toEqual({ value: null });
    expect(read("???")).toEqual({ value: null });
    expect(read("??/??/????")).toEqual({ value: null });
  });

  it("keeps what a date with unknown parts knows, and how precise it is (issue 37)", () => {
    for (const [raw, want] of [
      ["??/??/2019", "2019"],
      ["xx/xx/2019", "2019"],
      ["??/06/2019", "2019-06"],
      ["06/??/2019", "2019-06"],
      ["??/25/2019", "2019"],
      ["2019-06-??", "2019-06"],
      ["2019-??-??", "2019"],
      ["2019-??-05", "2019"],
      ["2019?", "2019"],
      ["c. 2019", "2019"],
      ["circa 2019", "2019"],
      ["ca. 2019", "2019"],
      ["~2019", "2019"],
      ["2019 (approx.)", "2019"],
      ["approx. June 2019", "2019-06"],
      ["~06/12/2019", "2019-06-12"],
      ["Early 2020", "2020"],
      ["Mid 2020", "2020"],
      ["Mid-2020", "2020"],
      ["Middle of 2020", "2020"],
      ["Late 2020", "2020"],
      ["Summer 2021", "2021"],
      ["Spring 2021", "2021"],
      ["Fall 2021", "2021"],
      ["Autumn 2021", "2021"],
      ["Winter 2021", "2021"],
      ["End of 2019", "2019"],
      ["Late June 2019", "2019-06"],
      ["Q3 2018", "2018"],
      ["2018 Q3", "2018"],
      ["June 2019", "2019-06"],
      ["Jun 2019", "2019-06"],
      ["Jun. 2019", "2019-06"],
      ["June, 2019", "2019-06"],
      ["Sept 2019", "2019-09"],
      ["06/2019", "2019-06"],
      ["6/2019", "2019-06"],
      ["??/2019", "2019"],
      ["2019-06", "2019-06"],
      ["2019/06", "2019-06"],
      ["2019", "2019"],
      // A date ahead is still a date: the leak details refuse what is too far ahead, not the reader.
      ["2099", "2099"],
    ] as const) {
      expect(read(raw), raw).toEqual({ value: want });
    }
  });

  it("keeps the year bound and the calendar, and says what it cannot read", () => {
    const unreadable = (raw: string) =>
      expect(read(raw), raw).toEqual({
        value: null,
        warning: `Leak date "${raw}" is not a date we can read: left empty`,
      });
    unreadable("02/30/2021");
    unreadable("1850");
    unreadable("2101");
    unreadable("13/2019");
    unreadable("2019-13");
    unreadable("Junk 2019");
    unreadable("Early 1850");
    unreadable("Early days");
    unreadable("Q5 2018");
    unreadable("soon™");
    unreadable("(2018 - 2019)");
    // Long text is cut in the warning.
    expect(read(`x${"y".repeat(100)}`).warning).toBe(
      `Leak date "x${"y".repeat(59)}" is not a date we can read: left empty`,
    );
  });

  it("reads an era's span as the sheet states it (issue 37)", () => {
    for (const [raw, startsOn, endsOn] of [
      ["(2018 - 2019)", "2018", "2019"],
      ["2018-2019", "2018", "2019"],
      ["2018 – 2019", "2018", "2019"],
      ["2018–2019", "2018", "2019"],
      ["(Jan 2018 - Mar 2019)", "2018-01", "2019-03"],
      ["06/2018 - 02/2019", "2018-06", "2019-02"],
      ["(2018 - Present)", "2018", null],
      ["2018 to now", "2018", null],
      ["(? - 2019)", null, "2019"],
      ["(Early 2018 - Late 2019)", "2018", "2019"],
      ["(01/01/2015 - 12/31/2015)", "2015-01-01", "2015-12-31"],
      ["(2019)", "2019", "2019"],
      ["[June 2019]", "2019-06", "2019-06"],
      ["(2019-06)", "2019-06", "2019-06"],
    ] as const) {
      expect(parseSpan(raw), raw).toEqual({ startsOn, endsOn });
    }
    // Not spans: a lone date without brackets is a date; text, a backwards range, two unknown ends.
    for (const raw of [
      "2019",
      "2019-06",
      "June 2019",
      "",
      "Collaboration with Yung Josh",
      "(Collaboration with Yung Josh)",
      "2019 - 2018",
      "(? - ?)",
      "(Present - 2019)",
      "(2018 - soon)",
      `(2018 - ${"9".repeat(100)})`,
    ])
      expect(parseSpan(raw), raw).toBeNull();
  });

  // Issue 24's adversarial cells (see title-parts.test.ts), for the date patterns.
  it("parses 30 KB adversarial cells in linear time", async () => {
    const module = new URL("./cell-dates.ts", import.meta.url);
    const spaces = " ".repeat(30_000);
    const cases: [string, string][] = [
      ["parseDate", `jan${spaces}x`],
      ["parseDate", `1${spaces}jan${spaces}x`],
      ["parseDate", `2019${"?".repeat(30_000)}x`],
      ["parseDate", `${"?".repeat(30_000)}x`],
      ["parseDate", `early${spaces}x`],
      ["parseDate", `c.${spaces}${"~".repeat(10_000)}`],
      ["parseDate", `2019${" (approx.)".repeat(3_000)}x`],
      ["parseDate", `2019-01-01T${":".repeat(30_000)}`],
      ["parseSpan", `(${"2018 - ".repeat(4_000)})`],
      ["parseSpan", `(${"-".repeat(30_000)}`],
    ];
    for (const [fn, cell] of cases) {
      const { ms } = await callWithin(module, fn, [cell, "Leak date"], 3_000);
      expect(ms, `${fn} on ${JSON.stringify(cell.slice(0, 20))}…`).toBeLessThan(1_000);
    }
  }, 60_000);
});
