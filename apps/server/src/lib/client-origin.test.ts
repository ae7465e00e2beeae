import { describe, expect, it } from "vitest";
import { deviceTag, ipPrefix } from "./client-origin.js";

describe("client origin", () => {
  it("reduces an address to its /24 or /64 network", () => {
    expect(ipPrefix("203.0.113.77")).toBe("203.0.113.0/24");
    expect(ipPrefix("::ffff:198.51.100.9")).toBe("198.51.100.0/24");
    expect(ipPrefix("2001:db8:abcd:12:1:2:3:4")).toBe("2001:db8:abcd:12::/64");
    expect(ipPrefix("2001:0db8:0000:0012::1")).toBe("2001:db8:0:12::/64");
    expect(ipPrefix("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(ipPrefix("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(ipPrefix("not an address")).toBeNull();
    expect(ipPrefix(undefined)).toBeNull();
  });

  it("tags a device without showing its cookie", () => {
    expect(deviceTag("abc")).toMatch(/^[0-9a-f]{8}$/);
    expect(deviceTag("abc")).toBe(deviceTag("abc"));
    expect(deviceTag("abd")).not.toBe(deviceTag("abc"));
    expect(deviceTag(null)).toBeNull();
  });
});
