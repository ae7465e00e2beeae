import { describe, expect, it } from "vitest";
import { loginPathFor, safeNextPath } from "./safe-next";

describe("safeNextPath", () => {
  it("keeps internal paths with query and hash", () => {
    expect(safeNextPath("/favorites")).toBe("/favorites");
    expect(safeNextPath("/?q=drake")).toBe("/?q=drake");
    expect(safeNextPath("/song/abc#share")).toBe("/song/abc#share");
    expect(safeNextPath("/admin/waitlist?page=2")).toBe("/admin/waitlist?page=2");
  });

  it.each([
    ["missing", undefined],
    ["null", null],
    ["empty", ""],
    ["protocol-relative", "//evil.com"],
    ["protocol-relative with path", "//evil.com/favorites"],
    ["scheme without slashes", "https:evil.com"],
    ["absolute http", "http://x"],
    ["absolute https", "https://evil.com/"],
    ["javascript", "javascript:alert(1)"],
    ["backslash host", "/\\evil.com"],
    ["double backslash", "\\\\evil.com"],
    ["tab trick", "/\t/evil.com"],
    ["newline trick", "/\n/evil.com"],
    ["relative", "favorites"],
    ["login loop", "/login?next=/favorites"],
    ["register", "/register"],
  ])("falls back to / for %s", (_name, raw) => {
    expect(safeNextPath(raw)).toBe("/");
  });

  it("normalises dot segments without leaving the site", () => {
    expect(safeNextPath("/a/../favorites")).toBe("/favorites");
    expect(safeNextPath("/..//evil.com")).toBe("/");
  });
});

describe("loginPathFor", () => {
  it("encodes the return path", () => {
    expect(loginPathFor("/favorites?x=1")).toBe("/login?next=%2Ffavorites%3Fx%3D1");
  });
  it("drops an unsafe or home return path", () => {
    expect(loginPathFor("//evil.com")).toBe("/login");
    expect(loginPathFor("/")).toBe("/login");
  });
});
