import { IDENTIFY_LIMITS } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { fromPosition, LISTEN_SECONDS, nextSendAt, SEND_AT_SECONDS } from "./identify";

describe("Identify's listening (issue 39)", () => {
  it("sends a recording at most as often as a member's limit allows for, within the server's 20 s", () => {
    expect(SEND_AT_SECONDS).toHaveLength(IDENTIFY_LIMITS.sendsPerRecording);
    expect([...SEND_AT_SECONDS]).toEqual([...SEND_AT_SECONDS].sort((a, b) => a - b));
    expect(LISTEN_SECONDS).toBeLessThanOrEqual(IDENTIFY_LIMITS.maxClipSeconds);
    // Ten recordings an hour fit the member's limit even when none is found early.
    expect(IDENTIFY_LIMITS.perMemberHour / IDENTIFY_LIMITS.sendsPerRecording).toBeGreaterThanOrEqual(10);
    expect(nextSendAt(0)).toBe(4);
    expect(nextSendAt(3)).toBeUndefined();
  });

  it("says where in the song the clip starts", () => {
    expect(fromPosition(72.4)).toBe("from 1:12");
    expect(fromPosition(0)).toBe("from 0:00");
  });
});
