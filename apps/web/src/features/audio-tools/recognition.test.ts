import { describe, expect, it } from "vitest";
import type { RecognitionCandidate, RecognitionMatch, RecognitionResult } from "./audio-tools";
import { potentialMatches } from "./recognition";

const candidate = (id: string, aligned: number, confidence: number): RecognitionCandidate => ({
  song: { id, title: id, artists: [] },
  aligned,
  confidence,
  offsetSeconds: 1,
  transform: null,
});
const result = (match: RecognitionCandidate | null, candidates: RecognitionCandidate[]): RecognitionResult => ({
  hashes: 100,
  seconds: 3,
  match: match
    ? ({ ...match, certainty: "likely", runnerUpAligned: 0, evidence: "plain" } satisfies RecognitionMatch)
    : null,
  candidates,
  message: "",
});

describe("potentialMatches", () => {
  it("lists the match and confident runners, not chance overlaps", () => {
    const a = candidate("a", 40, 0.9);
    const b = candidate("b", 12, 0.2);
    const c = candidate("c", 3, 0);
    const d = candidate("d", 2, 0.1);
    expect(potentialMatches(result(a, [a, b, c, d]), 8).map((x) => x.song.id)).toEqual(["a", "b"]);
  });

  it("keeps a match even when the server sent it alone", () => {
    const a = candidate("a", 9, 0.5);
    expect(potentialMatches(result(a, []), 8).map((c) => c.song.id)).toEqual(["a"]);
  });

  it("is empty when nothing stands out", () => {
    expect(potentialMatches(result(null, [candidate("x", 2, 0.13), candidate("y", 1, 0)]), 8)).toEqual([]);
  });
});
