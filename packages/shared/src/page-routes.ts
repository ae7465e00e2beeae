// The web app's pages in one place (issue 25): the client's router is built from these patterns, and the server
// answers 404 for a path none of them matches (the client then renders its not-found page from the same HTML).
// apps/web/src/app/router.test.ts checks the router uses exactly these.

/** Every page of the web app as a React Router path pattern (relative to the root; "" is the index route). */
export const PAGE_ROUTES = {
  home: "",
  landing: "landing",
  about: "about",
  developers: "developers",
  login: "login",
  register: "register",
  resetPassword: "reset-password",
  profile: "profile",
  song: "song/:id",
  artist: "artists/:artistId",
  changes: "changes",
  /** Issue 39: any signed-in member, waitlisted ones too, names a song from a clip. */
  identify: "identify",
  waitlist: "waitlist",
  favorites: "favorites",
  pending: "pending",
  upload: "upload",
  songEdit: "songs/:id/edit",
  songSuggestEdit: "songs/:id/suggest-edit",
  reports: "reports",
  editSuggestions: "edit-suggestions",
  adminWaitlist: "admin/waitlist",
  adminUsers: "admin/users",
  adminImport: "admin/import",
  adminAudit: "admin/audit",
  songRecognition: "song-recognition",
  audioQualityTest: "audio-quality-test",
} as const;

/** The name of a page in PAGE_ROUTES. */
export type PageRoute = keyof typeof PAGE_ROUTES;

/** A path matched to its page, with the parameters the pattern names. */
export type PageMatch = { route: PageRoute; params: Record<string, string> };

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * One pattern as React Router matches it (matchPath): static segments without regard to case, a `:param` any
 * one non-empty segment, trailing slashes allowed. Only these two kinds of segment are used; anything else
 * (optional segments, splats) would have to be taught here first.
 */
function compile(pattern: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const segments = pattern
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      if (/^:[\w-]+$/.test(segment)) {
        names.push(segment.slice(1));
        return "/([^/]+)";
      }
      if (/[:*?]/.test(segment)) throw new Error(`Unsupported route segment "${segment}" in "${pattern}"`);
      return `/${escapeRegExp(segment)}`;
    });
  return { regex: new RegExp(`^${segments.join("")}/*$`, "i"), names };
}

const COMPILED = (Object.entries(PAGE_ROUTES) as [PageRoute, string][]).map(([route, pattern]) => ({
  route,
  ...compile(pattern),
}));

/** The path decoded as React Router decodes it before matching: all of it, or (one segment malformed) none. */
function decodePath(pathname: string): string {
  try {
    return pathname
      .split("/")
      .map((segment) => decodeURIComponent(segment).replaceAll("/", "%2F"))
      .join("/");
  } catch {
    return pathname;
  }
}

/** The page a URL path (no query) shows, with its decoded parameters; undefined when none does (a 404). */
export function matchPageRoute(pathname: string): PageMatch | undefined {
  const decoded = decodePath(pathname.startsWith("/") ? pathname : `/${pathname}`);
  for (const { route, regex, names } of COMPILED) {
    const m = regex.exec(decoded);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      // An encoded slash stays one segment, as in React Router; the parameter gets the slash itself back.
      params[name] = (m[i + 1] ?? "").replaceAll("%2F", "/");
    });
    return { route, params };
  }
  return undefined;
}
