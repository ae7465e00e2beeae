import { describe, expect, it } from "vitest";
import { CERTAINTY_LEVELS, certaintyOf } from "./certainty.js";

describe("certainty words", () => {
  it("grade the evidence above the decision floor, stricter through a warp", () => {
    expect(certaintyOf(12, 2, "plain")).toBe("weak");
    expect(certaintyOf(CERTAINTY_LEVELS.plain.likely, 2, "plain")).toBe("likely");
    expect(certaintyOf(CERTAINTY_LEVELS.plain.sure, 2, "plain")).toBe("sure");
    expect(certaintyOf(CERTAINTY_LEVELS.plain.sure, 2, "warped")).toBe("likely");
    expect(certaintyOf(25, 0, "warped")).toBe("weak");
    expect(certaintyOf(120, 0, "warped")).toBe("sure");
  });

  it("never call a match sure while a runner-up is close behind", () => {
    expect(certaintyOf(100, 30, "plain")).toBe("likely");
    expect(certaintyOf(100, 25, "plain")).toBe("sure");
  });

  it("stay above every unrelated song the benchmark saw (15 as it is, 13 warped)", () => {
    expect(certaintyOf(15, 0, "plain")).toBe("weak");
    expect(certaintyOf(13 * 2, 0, "warped")).toBe("weak");
  });

  it("grade invariant matches above the best unrelated song bench:invariant saw (10 aligned triplets)", () => {
    expect(certaintyOf(10, 0, "invariant")).toBe("weak");
    expect(certaintyOf(CERTAINTY_LEVELS.invariant.likely, 0, "invariant")).toBe("likely");
    expect(certaintyOf(CERTAINTY_LEVELS.invariant.sure, 11, "invariant")).toBe("likely");
    expect(certaintyOf(CERTAINTY_LEVELS.invariant.sure, 5, "invariant")).toBe("sure");
  });
});
