import { describe, expect, it } from "vitest";
import { PLAY_COUNT_AFTER_SEC, playCountAfterSec } from "./constants.js";
import { neutralHandle } from "./handles.js";
import { audioUnreadableMessage, contestedNote, MESSAGES, VOTE_NOT_COUNTED_YET, VOTE_POINTS_NOTE } from "./messages.js";
import { defaultUsername, roleFlags } from "./roles.js";
import { describeAudioTransform } from "./schemas/audio-match.js";
import { changePasswordSchema, loginSchema, registerSchema } from "./schemas/auth.js";
import { leakDetailsSchema, NO_LEAK_DETAILS } from "./schemas/leak.js";
import { updateProfileSchema, usernameSchema } from "./schemas/user.js";

describe("roles (spec §6)", () => {
  it("derives the flags of each role", () => {
    expect(roleFlags("user")).toEqual({
      isAdmin: false,
      isSuperAdmin: false,
      canManageUsers: false,
      canManageContent: false,
      canDeleteContent: false,
    });
    expect(roleFlags("verified_contributor").isAdmin).toBe(false);
    expect(roleFlags("admin")).toEqual({
      isAdmin: true,
      isSuperAdmin: false,
      canManageUsers: true,
      canManageContent: true,
      canDeleteContent: false,
    });
    expect(roleFlags("super_admin")).toEqual({
      isAdmin: true,
      isSuperAdmin: true,
      canManageUsers: true,
      canManageContent: true,
      canDeleteContent: true,
    });
  });

  it("defaults the username to the e-mail's local part (spec §4)", () => {
    expect(defaultUsername("night.owl@example.com")).toBe("night.owl");
  });
});

describe("account schemas (spec §5)", () => {
  const issues = (r: { success: boolean; error?: { issues: { message: string; path: PropertyKey[] }[] } }) =>
    r.error?.issues.map((i) => [i.path.join("."), i.message]) ?? [];

  it("requires matching passwords of at least 6 characters", () => {
    expect(
      issues(registerSchema.safeParse({ email: "a@b.co", password: "secret1", confirmPassword: "secret2" })),
    ).toEqual([["confirmPassword", MESSAGES.passwordsDoNotMatch]]);
    expect(issues(registerSchema.safeParse({ email: "a@b.co", password: "12345", confirmPassword: "12345" }))).toEqual([
      ["password", MESSAGES.passwordTooShort],
    ]);
    expect(registerSchema.parse({ email: " A@B.co ", password: "secret1", confirmPassword: "secret1" }).email).toBe(
      "a@b.co",
    );
  });

  it("asks for the e-mail first and checks its format", () => {
    expect(issues(loginSchema.safeParse({ email: "", password: "x" }))[0]).toEqual(["email", MESSAGES.enterEmailFirst]);
    expect(issues(loginSchema.safeParse({ email: "nope", password: "x" }))[0]).toEqual([
      "email",
      MESSAGES.invalidEmail,
    ]);
  });

  it("checks the new password on change", () => {
    const r = changePasswordSchema.safeParse({ currentPassword: "old", newPassword: "abc", confirmPassword: "abc" });
    expect(issues(r)).toEqual([["newPassword", MESSAGES.passwordTooShort]]);
  });

  it("accepts only a username in a profile edit", () => {
    expect(updateProfileSchema.safeParse({ username: "ok name" }).success).toBe(true);
    expect(updateProfileSchema.safeParse({ username: "ok", role: "admin" }).success).toBe(false);
    expect(updateProfileSchema.safeParse({ username: "a" }).success).toBe(false);
  });
});

describe("leak details (issue 16)", () => {
  it("reads blank as none, splits and deduplicates names, and names each refusal", () => {
    expect(leakDetailsSchema.parse({})).toEqual(NO_LEAK_DETAILS);
    expect(
      leakDetailsSchema.parse({ era: " ", producers: "A, a , B", features: ["X", "x", " "], availability: "" }),
    ).toMatchObject({ era: null, producers: ["A", "B"], features: ["X"], availability: null });
    const message = (input: object) => leakDetailsSchema.safeParse(input).error?.issues[0]?.message;
    expect(message({ availability: "leaked" })).toBe(MESSAGES.invalidAvailability);
    expect(message({ quality: "great" })).toBe(MESSAGES.invalidQuality);
    expect(message({ leakDate: "2024-02-30" })).toBe(MESSAGES.invalidLeakDate);
    expect(message({ leakDate: "2999-01-01" })).toBe(MESSAGES.futureLeakDate);
    expect(message({ producers: Array.from({ length: 11 }, (_, i) => `P${i}`) })).toBe(MESSAGES.leakNamesTooMany);
  });
});

describe("describeAudioTransform", () => {
  it("names speed edits, pitch shifts, stretches and re-encodes for people", () => {
    expect(describeAudioTransform(1.08, 1.08)).toMatchObject({ kind: "speed", label: "sped up 8%" });
    expect(describeAudioTransform(0.85, 0.851).label).toBe("slowed down 15%");
    expect(describeAudioTransform(1, 2 ** (2 / 12))).toMatchObject({
      kind: "pitch",
      label: "pitch-shifted +2.0 semitones",
    });
    expect(describeAudioTransform(1.001, 2 ** (-1 / 12)).label).toBe("pitch-shifted \u22121.0 semitones");
    expect(describeAudioTransform(0.9, 1)).toMatchObject({ kind: "tempo", label: "time-stretched to 90% speed" });
    expect(describeAudioTransform(1.1, 0.95).kind).toBe("both");
    expect(describeAudioTransform(1.002, 0.999)).toMatchObject({ kind: "reencoded", label: "a re-encoded copy" });
    expect(describeAudioTransform(1, 1, false)).toMatchObject({ kind: "same", label: "the same file" });
  });
});

describe("playCountAfterSec (decision 027)", () => {
  it("counts after 30 s, half of a song under a minute, and 30 s when the length is unknown", () => {
    expect(playCountAfterSec(240)).toBe(PLAY_COUNT_AFTER_SEC);
    expect(playCountAfterSec(60)).toBe(30);
    expect(playCountAfterSec(20)).toBe(10);
    expect(playCountAfterSec(3)).toBe(1.5);
    for (const unknown of [null, undefined, 0, -5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(playCountAfterSec(unknown)).toBe(PLAY_COUNT_AFTER_SEC);
  });
});

describe("wording (issue 38)", () => {
  it("ends the contested-vote sentence with its full stop, and thanks in sentence case", () => {
    expect(contestedNote("Jan 2, 2026, 3:00 PM")).toMatch(/long enough\.$/);
    expect(MESSAGES.waitlistThankYou).toBe("Thank you.");
  });

  it("says a vote that does not count yet earns its point only once it does", () => {
    expect(VOTE_NOT_COUNTED_YET).toMatch(/point waits until it does/);
    expect(VOTE_POINTS_NOTE).toMatch(/count \(and earn their points\) only once/);
  });

  it("tells a file named like audio that it could not be read as audio, not to upload that format", () => {
    const message = audioUnreadableMessage("mp3");
    expect(message).toMatch(/^That file could not be read as audio\./);
    expect(message).toContain(".mp3");
    expect(message).not.toMatch(/upload an MP3/i);
  });

  it("offers neutral handles a member could have chosen", () => {
    let n = 0;
    const handle = neutralHandle((min, max) => min + (n++ % (max - min)));
    expect(handle).toMatch(/^[a-z]+-[a-z]+-\d{4}$/);
    expect(usernameSchema.safeParse(handle).success).toBe(true);
  });
});
