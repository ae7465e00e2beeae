import { MESSAGES } from "@unheard/shared";
import type { ResolverOptions } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { type ProfileForm, profileResolver } from "./profile-form";

const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<ProfileForm>;
const form = (over: Partial<ProfileForm> = {}): ProfileForm => ({
  username: "listener",
  currentPassword: "",
  newPassword: "",
  confirmPassword: "",
  ...over,
});
const messages = async (values: ProfileForm) => {
  const { errors } = await profileResolver(values, undefined, options);
  return Object.fromEntries(Object.entries(errors).map(([k, v]) => [k, v?.message]));
};

describe("profileResolver", () => {
  it("accepts a username change without touching the password", async () => {
    expect(await messages(form({ username: "  new name " }))).toEqual({});
    const { values } = await profileResolver(form({ username: "  new name " }), undefined, options);
    expect(values).toMatchObject({ username: "new name" });
  });

  it("rejects a too-short username", async () => {
    expect((await messages(form({ username: "a" }))).username).toBe("Username must be at least 2 characters");
  });

  it("asks for the current password once a new one is typed", async () => {
    const m = await messages(form({ newPassword: "secret12", confirmPassword: "secret12" }));
    expect(m.currentPassword).toBe("Please enter your current password");
  });

  it("uses the spec's wording for short and mismatched passwords", async () => {
    const short = await messages(form({ currentPassword: "old-pass", newPassword: "12345", confirmPassword: "12345" }));
    expect(short.newPassword).toBe(MESSAGES.passwordTooShort);
    const mismatch = await messages(
      form({ currentPassword: "old-pass", newPassword: "secret12", confirmPassword: "secret13" }),
    );
    expect(mismatch.confirmPassword).toBe(MESSAGES.passwordsDoNotMatch);
  });
});
