/** Where to go when the requested return path is missing or unsafe. */
export const DEFAULT_NEXT = "/";

// Paths that would send a freshly signed-in user back to an accounts screen.
const ACCOUNT_PATHS = new Set(["/login", "/register", "/reset-password"]);

/**
 * Return `raw` when it is a same-site path (starts with one "/", no scheme, no host); otherwise "/".
 * Browsers read "\" as "/" and drop tabs and newlines, so those are refused outright.
 */
export function safeNextPath(raw: string | null | undefined): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2000) return DEFAULT_NEXT;
  if (!raw.startsWith("/") || raw.startsWith("//")) return DEFAULT_NEXT;
  // Backslashes and control characters (incl. tab, CR, LF) can turn a path into "//host".
  if (raw.includes("\\") || hasControlChar(raw)) return DEFAULT_NEXT;
  // The same tricks percent-encoded ("/%2F%2Fevil.com", "/%0d%0aLocation:", "/%5Cevil.com"): a router, a proxy
  // or a second decoding turns them back into the real thing, so they are refused too.
  if (!decodesSafely(raw)) return DEFAULT_NEXT;
  const base = "http://unheard.invalid";
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return DEFAULT_NEXT;
  }
  // Dot segments can collapse into "//host" ("/..//evil.com"), so check the normalised path too.
  if (url.origin !== base || url.pathname.startsWith("//")) return DEFAULT_NEXT;
  if (ACCOUNT_PATHS.has(url.pathname)) return DEFAULT_NEXT;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The `/login?next=...` address that brings the user back to `path` afterwards. */
export function loginPathFor(path: string): string {
  const next = safeNextPath(path);
  return next === DEFAULT_NEXT ? "/login" : `/login?next=${encodeURIComponent(next)}`;
}

function hasControlChar(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Whether every decoding of `raw` (up to a few rounds) stays a plain path: no "//" start, no "\\", no control. */
function decodesSafely(raw: string): boolean {
  let current = raw;
  for (let round = 0; round < 3; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      // Malformed escapes in the path as given are refused; after a round they are just text ("100%" searched).
      return round > 0;
    }
    if (next === current) return true;
    if (next.startsWith("//") || next.includes("\\") || hasControlChar(next)) return false;
    current = next;
  }
  // Still changing after three rounds: deliberately nested, refuse it.
  return false;
}
