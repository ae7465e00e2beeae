import { createHash, randomBytes } from "node:crypto";
import { isIP } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";

// Where a request comes from, coarsely (decision 015): the network an account signed up or voted from, and a
// first-party device cookie. Admins see these to spot vote rings; neither identifies a person on its own.

const DEVICE_COOKIE = "unheard.device";
const DEVICE_RE = /^[A-Za-z0-9_-]{22,64}$/;

/** Expand an IPv6 address to its eight groups. */
function ipv6Groups(ip: string): string[] {
  const [head = "", tail] = ip.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const fill = tail === undefined ? [] : new Array(8 - left.length - right.length).fill("0");
  return [...left, ...fill, ...right].map((g) => g.toLowerCase().replace(/^0+(?=.)/, ""));
}

/** The /24 (IPv4) or /64 (IPv6) network of an address, e.g. "203.0.113.0/24"; null when it is not an address. */
export function ipPrefix(ip: string | undefined): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const addr = mapped?.[1] ?? ip.split("%")[0] ?? "";
  if (isIP(addr) === 4) return `${addr.split(".").slice(0, 3).join(".")}.0/24`;
  if (isIP(addr) === 6) return `${ipv6Groups(addr).slice(0, 4).join(":")}::/64`;
  return null;
}

/** The request's device id from its cookie, setting a new one (two years, HttpOnly) when it has none. */
export function deviceOf(req: FastifyRequest, reply: FastifyReply): string {
  const m = /(?:^|;\s*)unheard\.device=([^;]+)/.exec(req.headers.cookie ?? "");
  if (m?.[1] && DEVICE_RE.test(m[1])) return m[1];
  const id = randomBytes(18).toString("base64url");
  const secure = req.protocol === "https" ? "; Secure" : "";
  reply.header("set-cookie", `${DEVICE_COOKIE}=${id}; Path=/; Max-Age=63072000; HttpOnly; SameSite=Lax${secure}`);
  return id;
}

/** A short tag for a device id: the same browser gets the same tag, and the cookie itself is never shown. */
export function deviceTag(device: string | null): string | null {
  return device ? createHash("sha256").update(device).digest("hex").slice(0, 8) : null;
}
