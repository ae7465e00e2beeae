import { describe, expect, it } from "vitest";
import { CERTAINTY_LEVELS, certaintyOf } from "./certainty.js";

describe("certainty words", () => {
  it("grade the evidence above the decision floor, stricter through a warp", () => {
    expect(certaintyOf(12, 2, false)).toBe("weak");
    expect(certaintyOf(CERTAINTY_LEVELS.plain.likely, 2, false)).toBe("likely");
    expect(certaintyOf(CERTAINTY_LEVELS.plain.sure, 2, false)).toBe("sure");
    expect(certaintyOf(CERTAINTY_LEVELS.plain.sure, 2, true)).toBe("likely");
    expect(certaintyOf(25, 0, true)).toBe("weak");
    expect(certaintyOf(120, 0, true)).toBe("sure");
  });

  it("never call a match sure while a runner-up is close behind", () => {
    expect(certaintyOf(100, 30, false)).toBe("likely");
    expect(certaintyOf(100, 25, false)).toBe("sure");
  });

  it("stay above every unrelated song the benchmark saw (15 as it is, 13 warped)", () => {
    expect(certaintyOf(15, 0, false)).toBe("weak");
    expect(certaintyOf(13 * 2, 0, true)).toBe("weak");
  });
});
