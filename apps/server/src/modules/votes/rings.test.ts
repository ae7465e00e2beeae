import { describe, expect, it } from "vitest";
import { type RingVoter, ringSignals } from "./rings.js";

const DAY = 86_400_000;
let n = 0;
/** A voter unlike any other unless the test says so. */
const voter = (over: Partial<RingVoter> = {}): RingVoter => {
  n++;
  return {
    id: `v${n}`,
    createdAt: n * 10 * DAY,
    signupPrefix: `10.0.${n}.0/24`,
    votePrefix: `10.0.${n}.0/24`,
    signupDevice: `device-${n}`,
    voteDevice: `device-${n}`,
    uploaderUpvotes: 0,
    ...over,
  };
};

describe("ring signals", () => {
  it("finds nothing among unrelated voters", () => {
    expect(ringSignals([voter(), voter(), voter(), voter()])).toEqual([]);
  });

  it("names voters who keep upvoting the same uploader", () => {
    const backers = [voter({ uploaderUpvotes: 2 }), voter({ uploaderUpvotes: 5 }), voter({ uploaderUpvotes: 3 })];
    const signals = ringSignals([...backers, voter({ uploaderUpvotes: 1 })]);
    expect(signals).toEqual([
      {
        text: "3 voters also upvoted 2 or more of this uploader's other songs",
        members: backers.map((b) => b.id),
      },
    ]);
  });

  it("needs three voters on one network or made together, but two on one device", () => {
    const sameNet = [voter({ votePrefix: "203.0.113.0/24" }), voter({ signupPrefix: "203.0.113.0/24" })];
    expect(ringSignals(sameNet)).toEqual([]);
    const third = voter({ votePrefix: "203.0.113.0/24" });
    expect(ringSignals([...sameNet, third]).map((s) => s.text)).toEqual([
      "3 voters signed up or voted from 203.0.113.0/24",
    ]);
    const shared = [voter({ voteDevice: "one" }), voter({ signupDevice: "one" })];
    expect(ringSignals(shared).map((s) => s.members)).toEqual([shared.map((v) => v.id)]);
    const t = 1_000 * DAY;
    const together = [
      voter({ createdAt: t }),
      voter({ createdAt: t + 3_600_000 }),
      voter({ createdAt: t + 23 * 3_600_000 }),
    ];
    expect(ringSignals([...together, voter({ createdAt: t + 2 * DAY })]).map((s) => s.members)).toEqual([
      together.map((v) => v.id),
    ]);
  });
});
