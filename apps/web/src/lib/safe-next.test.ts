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
    ["encoded slashes after one", "/%2F%2Fevil.com"],
    ["encoded slashes", "%2F%2Fevil.com"],
    ["lower-case encoded slashes", "/%2f%2fevil.com/favorites"],
    ["encoded backslash", "/%5Cevil.com"],
    ["encoded backslash then slash", "/%5C/evil.com"],
    ["double-encoded slashes", "/%252F%252Fevil.com"],
    ["encoded CRLF header", "/%0d%0aLocation:%20https://evil.com"],
    ["encoded newline", "/%0A/evil.com"],
    ["encoded tab", "/%09/evil.com"],
    ["encoded NUL", "/favorites%00"],
    ["malformed escape", "/%E0%A4%A"],
    ["raw CRLF", "/\r\nLocation: https://evil.com"],
    ["backslash in the query", "/favorites?x=\\evil"],
    ["register", "/register"],
  ])("falls back to / for %s", (_name, raw) => {
    expect(safeNextPath(raw)).toBe("/");
  });

  it("keeps encoded characters that are harmless", () => {
    expect(safeNextPath("/?q=100%25")).toBe("/?q=100%25");
    expect(safeNextPath("/?q=a%2Fb")).toBe("/?q=a%2Fb");
    expect(safeNextPath("/artist/Caf%C3%A9")).toBe("/artist/Caf%C3%A9");
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
