/**
 * The permission matrix (issue 15, item 1): every API route x every role, with the HTTP status each role gets.
 * permissions.test.ts runs it on SQLite and PostgreSQL, fails when the app has a route this table lacks (or the
 * table names one the app does not have), and checks that a refused call (4xx) leaves every table as it was.
 *
 * The roles, one column each, in this order:
 * - visitor: no session cookie.
 * - unverified: a registered account that is not let in yet: its e-mail is verified (so it can sign in) but the
 *   waitlist gate (WAITLIST_GATE, on by default) holds it, as viewer.ts does for `off_waitlist` false. An account
 *   whose e-mail is not verified cannot sign in at all (login answers 403 and sets no cookie; see the test), so
 *   every call it can make is a visitor's call: the visitor column covers it. This is the only registered but
 *   not-admitted state that can hold a session, so it is the one worth a column. It may see and edit its own
 *   profile (/api/me, notifications and their settings, password), follow artists and sign out; favourites,
 *   the pending list and every contribution (upload, vote, report, suggest, edit) wait for approval.
 * - user: role `user`, let in from the waitlist.
 * - verified_contributor: role `verified_contributor` (edits others' songs as suggestions for review).
 * - admin: role `admin` holding every admin permission of spec §3 (reports, suggestions, waitlist, users, hiding,
 *   direct verify, edits, linking artists, contributor status, imports). A row that names a `permission` is also
 *   run by an admin holding every permission but that one, who must get 403 and change nothing (issue 24).
 * - super_admin: role `super_admin` (also delete, verify all, merge/verify artists, recognition, audit log).
 * - owner: a plain `user` who uploaded the song the route acts on; on artist routes it is the account whose
 *   artist page it is; elsewhere it is just another user.
 *
 * Each row names the registered route (method + URL pattern) and, optionally, a label when one route has more
 * than one row (a hidden song, "all" notifications). `request` builds the call for one role; rows whose call
 * succeeds by changing something use fresh objects from `fx`, so every row starts from the same state.
 * 401: sign in first; 403: signed in but not allowed (or held by the waitlist); 400: a made-up token, whoever
 * sends it; 404: the song is hidden from everyone but admins; 503: allowed, then the SoundCloud search says it is
 * not configured (no client id in tests). Identify (issue 39) is open to every signed-in account, the waitlisted
 * one included (decision 032).
 */
import type { AdminPermission } from "@unheard/shared";
import { multipart, wavFile } from "./fixtures.js";

/** The matrix's columns, in the order `expect` lists them. */
export const MATRIX_ROLES = [
  "visitor",
  "unverified",
  "user",
  "verified_contributor",
  "admin",
  "super_admin",
  "owner",
] as const;
/** One column of the matrix. */
export type MatrixRole = (typeof MATRIX_ROLES)[number];

/** The statuses of one row: visitor, unverified, user, verified_contributor, admin, super_admin, owner. */
export type Statuses = readonly [number, number, number, number, number, number, number];

/** HTTP methods the API uses. */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One call as a role makes it. */
export type MatrixRequest = {
  url: string;
  payload?: string | object | Buffer;
  headers?: Record<string, string>;
  /** Another session than the role's usual one (a fresh one for logout); null sends no cookie. */
  cookie?: string | null;
  /** A Server-Sent Events stream: only its status is read, over a real connection. */
  stream?: boolean;
  /** The answer's session cookie replaces the role's (signing in and changing the password end the old one). */
  newSession?: boolean;
  /** Another user's rows the call must leave alone even when it succeeds; read before and after. */
  untouched?: () => Promise<unknown>;
};

/** What rows build their calls from: the suite's shared objects and makers of fresh ones. */
export type MatrixFixtures = {
  /** The shared objects: a visible and a hidden song of the owner's, their placeholder artist. */
  ids: { song: string; pendingSong: string; hiddenSong: string; artist: string; owner: string };
  /** The user id of a signed-in role (undefined for the visitor). */
  userId(role: MatrixRole): string | undefined;
  /** The e-mail a role signs in with (the visitor: a spare account's). */
  emailOf(role: MatrixRole): string;
  /** The password of every account. */
  password: string;
  /** An e-mail no account uses yet. */
  freshEmail(): string;
  /** A name no one uses yet. */
  unique(prefix: string): string;
  /** A new pending song uploaded by the owner (hidden when asked). */
  freshSong(opts?: { hidden?: boolean }): Promise<string>;
  /** A new user row (role user, let in unless `held`) or a placeholder artist. */
  freshUser(opts?: { placeholderArtist?: boolean; held?: boolean }): Promise<string>;
  /** A pending report of a fresh song. */
  freshReport(): Promise<string>;
  /** A pending edit suggestion of a fresh song. */
  freshSuggestion(): Promise<string>;
  /** An unread notification of the owner's. */
  freshNotification(): Promise<string>;
  /** A waitlist entry. */
  freshWaitlistEntry(): Promise<string>;
  /** A second session of a role (undefined for the visitor), so the usual one survives logout. */
  freshCookie(role: MatrixRole): Promise<string | undefined>;
  /** A start token of a role's for a song (decision 027): a report of it right away counts nothing. */
  playToken(role: MatrixRole, songId: string): Promise<string>;
  /** A row of the database, for `untouched` probes. */
  row(table: "notification" | "favorite" | "follow", where: Record<string, string>): Promise<unknown>;
};

/** One row of the matrix. */
export type MatrixCase = {
  method: HttpMethod;
  /** The URL pattern as registered. */
  route: string;
  /** Tells apart rows of one route. */
  label?: string;
  expect: Statuses;
  /** The admin permission (spec §3) the admin column needs: without it an admin gets 403. */
  permission?: AdminPermission;
  request(fx: MatrixFixtures, role: MatrixRole): MatrixRequest | Promise<MatrixRequest>;
};

const songFields = (fx: MatrixFixtures) => ({
  title: fx.unique("Edited"),
  artists: ["Matrix Artist"],
  genre: "Rock",
  releaseDate: null,
  soundcloudUrl: null,
});
const notOwner = (role: MatrixRole) => role !== "owner";
const isAdmin = (role: MatrixRole) => role === "admin" || role === "super_admin";

// The common columns: visitor, unverified, user, verified_contributor, admin, super_admin, owner.
const EVERYONE: Statuses = [200, 200, 200, 200, 200, 200, 200];
const SIGNED_IN: Statuses = [401, 200, 200, 200, 200, 200, 200];
const MEMBERS: Statuses = [401, 403, 200, 200, 200, 200, 200];
const ADMINS: Statuses = [401, 403, 403, 403, 200, 200, 403];
const SUPER_ADMIN: Statuses = [401, 403, 403, 403, 403, 200, 403];
const NOT_FOUND: Statuses = [404, 404, 404, 404, 404, 404, 404];
/** A pending song: 404 to visitors and waitlisted accounts, as an unknown song (issue 24); members see it. */
const PENDING_READ: Statuses = [404, 404, 200, 200, 200, 200, 200];
/** A hidden song: 404 to all but admins (reads), after the sign-in checks (writes). */
const HIDDEN_READ: Statuses = [404, 404, 404, 404, 200, 200, 404];
const HIDDEN_WRITE: Statuses = [401, 403, 404, 404, 200, 200, 404];
const OWNER_OR_ADMINS: Statuses = [401, 403, 403, 403, 200, 200, 200];
/** Admins holding canBulkImport (the matrix's admin holds every permission). */
const IMPORTERS: Statuses = [401, 403, 403, 403, 200, 200, 403];
/** Importers' calls on a record that does not exist: 404 once past the permission check. */
const IMPORTERS_NOT_FOUND: Statuses = [401, 403, 403, 403, 404, 404, 403];

type Build = MatrixCase["request"];

/** One row; `label` tells apart rows of one route. */
const row = (method: HttpMethod, route: string, expect: Statuses, request: Build, label?: string): MatrixCase => ({
  method,
  route,
  expect,
  request,
  ...(label ? { label } : {}),
});
/** `c` with the admin permission it needs. */
const needs = (permission: AdminPermission, c: MatrixCase): MatrixCase => ({ ...c, permission });
/** A GET of a fixed URL (the route itself unless given). */
const get = (route: string, expect: Statuses, url = route): MatrixCase => row("GET", route, expect, () => ({ url }));
/** A GET of the shared (verified) song under `/api/songs/:id<suffix>`, and the same of the pending and hidden ones. */
const songReads = (suffix: string): MatrixCase[] => [
  row("GET", `/api/songs/:id${suffix}`, EVERYONE, (fx) => ({ url: `/api/songs/${fx.ids.song}${suffix}` })),
  row(
    "GET",
    `/api/songs/:id${suffix}`,
    PENDING_READ,
    (fx) => ({ url: `/api/songs/${fx.ids.pendingSong}${suffix}` }),
    "pending song",
  ),
  row(
    "GET",
    `/api/songs/:id${suffix}`,
    HIDDEN_READ,
    (fx) => ({ url: `/api/songs/${fx.ids.hiddenSong}${suffix}` }),
    "hidden song",
  ),
];
/** Play starts: the shared, pending and hidden songs as their reads, and a song without audio (404 to all). */
const songPlays = (): MatrixCase[] => [
  ...songReads("/plays/start").map((c) => ({ ...c, method: "POST" as const })),
  row(
    "POST",
    "/api/songs/:id/plays/start",
    NOT_FOUND,
    async (fx) => ({ url: `/api/songs/${await fx.freshSong()}/plays/start` }),
    "a song without audio",
  ),
];
/** A call on a fresh song of the owner's (`/api/songs/<id><suffix>`), hidden when asked. */
const onFreshSong =
  (suffix: string, payload?: (fx: MatrixFixtures) => object, hidden = false): Build =>
  async (fx) => ({
    url: `/api/songs/${await fx.freshSong({ hidden })}${suffix}`,
    ...(payload ? { payload: payload(fx) } : {}),
  });
/** Link a song as a remix of the shared song. */
const versionLink = (fx: MatrixFixtures) => ({ songId: fx.ids.song, kind: "remix" });
/** A call on a shared object that must leave the owner's own row of it alone. */
const sparingOwner =
  (url: (fx: MatrixFixtures) => string, ownersRow: (fx: MatrixFixtures) => Promise<unknown>): Build =>
  (fx, role) => ({ url: url(fx), ...(notOwner(role) ? { untouched: () => ownersRow(fx) } : {}) });
const ownersFavorite = sparingOwner(
  (fx) => `/api/songs/${fx.ids.song}/favorite`,
  (fx) => fx.row("favorite", { song_id: fx.ids.song, user_id: fx.ids.owner }),
);
const ownersFollow = sparingOwner(
  (fx) => `/api/artists/${fx.ids.artist}/follow`,
  (fx) => fx.row("follow", { artist_id: fx.ids.artist, follower_id: fx.ids.owner }),
);
/** Marks a fresh notification of the owner's read through `url`; other roles must leave it unread. */
const readNotification =
  (url: (id: string) => string): Build =>
  async (fx, role) => {
    const id = await fx.freshNotification();
    return { url: url(id), ...(notOwner(role) ? { untouched: () => fx.row("notification", { id }) } : {}) };
  };
/** A POST of the role's own e-mail address (mail about an account: the same answer for everyone). */
const mailTo = (route: string) =>
  row("POST", route, EVERYONE, (fx, role) => ({ url: route, payload: { email: fx.emailOf(role) } }));
/** One second of a 440 Hz tone at `rate`, 16-bit mono PCM: what the recognition and Identify pages stream. */
const tone = (rate: number): Buffer => {
  const pcm = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i++) pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 8000), i * 2);
  return pcm;
};
/** A one-song tracker CSV posted to an import route (small enough to finish within the request). */
const importFile = (fx: MatrixFixtures, url: string): MatrixRequest => {
  const csv = `Name,Artist,Leak Date\n${fx.unique("Imported")},Matrix Artist,2021-01-05\n`;
  const body = multipart({}, { name: "tracker.csv", data: Buffer.from(csv), type: "text/csv", field: "file" });
  return { url, payload: body.payload, headers: body.headers };
};
const freshPlaceholder = (fx: MatrixFixtures) => fx.freshUser({ placeholderArtist: true });

/** The matrix. Columns: visitor, unverified, user, verified_contributor, admin, super_admin, owner. */
export const PERMISSION_MATRIX: MatrixCase[] = [
  // health
  get("/api/config", EVERYONE),
  get("/api/health", EVERYONE),

  // auth: open to everyone; the signed-in roles get the same answers
  row("POST", "/api/auth/register", [201, 201, 201, 201, 201, 201, 201], (fx) => {
    const email = fx.freshEmail();
    return { url: "/api/auth/register", payload: { email, password: fx.password, confirmPassword: fx.password } };
  }),
  // Signing in again replaces the session the request carried: the role goes on with the new one.
  row("POST", "/api/auth/login", EVERYONE, (fx, role) => ({
    url: "/api/auth/login",
    payload: { email: fx.emailOf(role), password: fx.password },
    newSession: true,
  })),
  row("POST", "/api/auth/logout", EVERYONE, async (fx, role) => ({
    url: "/api/auth/logout",
    cookie: (await fx.freshCookie(role)) ?? null,
  })),
  mailTo("/api/auth/resend-verification"),
  row(
    "GET",
    "/api/auth/verify-email",
    [400, 400, 400, 400, 400, 400, 400],
    () => ({ url: "/api/auth/verify-email?token=not-a-token", headers: { accept: "application/json" } }),
    "a made-up token",
  ),
  mailTo("/api/auth/forgot-password"),
  row(
    "POST",
    "/api/auth/reset-password",
    [400, 400, 400, 400, 400, 400, 400],
    (fx) => ({
      url: "/api/auth/reset-password",
      payload: { token: "not-a-token", newPassword: fx.password, confirmPassword: fx.password },
    }),
    "a made-up token",
  ),
  // Other sessions are revoked: the role goes on with the session the answer sets.
  row("POST", "/api/auth/change-password", SIGNED_IN, (fx) => ({
    url: "/api/auth/change-password",
    payload: { currentPassword: fx.password, newPassword: fx.password, confirmPassword: fx.password },
    newSession: true,
  })),

  // the signed-in user's own profile
  get("/api/me", SIGNED_IN),
  get("/api/session", EVERYONE),
  // The owner has an artist page: its name is the credit on songs, so only an admin renames it (issue 24).
  row("PATCH", "/api/me", [401, 200, 200, 200, 200, 200, 403], (fx) => ({
    url: "/api/me",
    payload: { username: fx.unique("name") },
  })),
  row("GET", "/api/events", EVERYONE, () => ({ url: "/api/events", stream: true })),

  // songs
  get("/api/songs", EVERYONE),
  get("/api/songs/recommendations", EVERYONE),
  get("/api/landing/tracks", EVERYONE),
  get("/api/me/favorites", MEMBERS),
  ...songReads(""),
  ...songReads("/history"),
  ...songReads("/audio"),
  ...songReads("/cover.svg"),
  row("POST", "/api/songs", [401, 403, 201, 201, 201, 201, 201], (fx) => {
    const title = fx.unique("Upload");
    const body = multipart(
      { title, artists: ["Matrix Uploader"], genre: "Pop" },
      { name: "song.wav", data: wavFile(1, title) },
    );
    return { url: "/api/songs", payload: body.payload, headers: body.headers };
  }),
  // The owner and admins holding canEditAllSongs edit directly (200); a verified contributor's edit goes to review.
  needs(
    "canEditAllSongs",
    row(
      "PATCH",
      "/api/songs/:id",
      [401, 403, 403, 202, 200, 200, 200],
      onFreshSong("", (fx) => ({ ...songFields(fx), comment: "matrix edit" })),
    ),
  ),
  row(
    "PATCH",
    "/api/songs/:id",
    HIDDEN_WRITE,
    onFreshSong("", (fx) => ({ ...songFields(fx), comment: "matrix edit" }), true),
    "hidden song",
  ),
  row("DELETE", "/api/songs/:id", [401, 403, 403, 403, 403, 200, 403], onFreshSong("")),
  // Versions (issue 16): linking is an edit, for the owner and admins only (no review path).
  ...songReads("/versions"),
  row("PUT", "/api/songs/:id/version-of", OWNER_OR_ADMINS, onFreshSong("/version-of", versionLink)),
  row("PUT", "/api/songs/:id/version-of", HIDDEN_WRITE, onFreshSong("/version-of", versionLink, true), "hidden song"),
  row("DELETE", "/api/songs/:id/version-of", OWNER_OR_ADMINS, onFreshSong("/version-of")),
  // The owner's favourite of the shared song is theirs alone.
  row("PUT", "/api/songs/:id/favorite", MEMBERS, ownersFavorite),
  row("DELETE", "/api/songs/:id/favorite", MEMBERS, ownersFavorite),
  row("PUT", "/api/songs/:id/favorite", HIDDEN_WRITE, onFreshSong("/favorite", undefined, true), "hidden song"),
  // Listening counts (decision 027): anyone who may see a song with audio starts a play; a report with a fresh
  // token is answered (counting nothing before the threshold); a token the server did not sign is refused.
  ...songPlays(),
  row("POST", "/api/songs/:id/plays", EVERYONE, async (fx, role) => ({
    url: `/api/songs/${fx.ids.song}/plays`,
    payload: { token: await fx.playToken(role, fx.ids.song) },
  })),
  row(
    "POST",
    "/api/songs/:id/plays",
    [400, 400, 400, 400, 400, 400, 400],
    (fx) => ({ url: `/api/songs/${fx.ids.song}/plays`, payload: { token: "not-a-token" } }),
    "a made-up token",
  ),
  get("/api/search", EVERYONE, "/api/search?q=matrix"),
  get("/api/search/suggest", EVERYONE, "/api/search/suggest?q=matr"),

  // artists: the shared placeholder artist; PATCH acts on the owner's own artist page
  row("GET", "/api/artists/:id", EVERYONE, (fx) => ({ url: `/api/artists/${fx.ids.artist}` })),
  row("GET", "/api/artists/:id/songs", EVERYONE, (fx) => ({ url: `/api/artists/${fx.ids.artist}/songs` })),
  row("GET", "/api/artists/:id/tracker", EVERYONE, (fx) => ({ url: `/api/artists/${fx.ids.artist}/tracker` })),
  row("GET", "/api/artists/:id/tracker.csv", EVERYONE, (fx) => ({ url: `/api/artists/${fx.ids.artist}/tracker.csv` })),
  // changelogs (issue 37): everyone reads them (each line only of songs the reader may see), and their feeds
  row("GET", "/api/artists/:id/changes", EVERYONE, (fx) => ({ url: `/api/artists/${fx.ids.artist}/changes` })),
  row("GET", "/api/artists/:id/changes.atom", EVERYONE, (fx) => ({
    url: `/api/artists/${fx.ids.artist}/changes.atom`,
  })),
  get("/api/changes", EVERYONE),
  get("/api/changes.atom", EVERYONE),
  // Following is open to waitlisted accounts, as the artist page is (the browser tests follow with unapproved members).
  row("PUT", "/api/artists/:id/follow", SIGNED_IN, ownersFollow),
  row("DELETE", "/api/artists/:id/follow", SIGNED_IN, ownersFollow),
  needs(
    "canVerifyArtists",
    row("PATCH", "/api/artists/:id", [401, 403, 403, 403, 200, 200, 200], (fx) => ({
      url: `/api/artists/${fx.ids.owner}`,
      payload: { bio: fx.unique("bio"), instagram: null, twitter: null, website: null },
    })),
  ),
  // An era's page, as the artist's own (issue 27).
  needs(
    "canVerifyArtists",
    row("PUT", "/api/artists/:id/eras", [401, 403, 403, 403, 200, 200, 200], (fx) => ({
      url: `/api/artists/${fx.ids.owner}/eras`,
      payload: { name: "Matrix Era", description: fx.unique("era") },
    })),
  ),
  get("/api/admin/artists/search", SUPER_ADMIN, "/api/admin/artists/search?q=a"),
  row("POST", "/api/admin/artists/merge", SUPER_ADMIN, async (fx) => ({
    url: "/api/admin/artists/merge",
    payload: { keepId: await freshPlaceholder(fx), mergeId: await freshPlaceholder(fx) },
  })),
  needs(
    "canVerifyArtists",
    row("POST", "/api/admin/artists/:id/claim", ADMINS, async (fx) => ({
      url: `/api/admin/artists/${await freshPlaceholder(fx)}/claim`,
      payload: { userId: await fx.freshUser() },
    })),
  ),
  row("PUT", "/api/admin/artists/:id/verified", SUPER_ADMIN, async (fx) => ({
    url: `/api/admin/artists/${await freshPlaceholder(fx)}/verified`,
    payload: { verified: true },
  })),

  // notifications: each sees and marks only their own
  get("/api/notifications", SIGNED_IN),
  row(
    "POST",
    "/api/notifications/:id/read",
    SIGNED_IN,
    readNotification((id) => `/api/notifications/${id}/read`),
    "the owner's notification",
  ),
  row(
    "POST",
    "/api/notifications/:id/read",
    SIGNED_IN,
    readNotification(() => "/api/notifications/all/read"),
    "all",
  ),
  get("/api/me/notification-settings", SIGNED_IN),
  row("PUT", "/api/me/notification-settings", SIGNED_IN, () => ({
    url: "/api/me/notification-settings",
    payload: {
      kinds: {
        new_song: true,
        song_verified: false,
        song_unverified: true,
        report_processed: true,
        suggestion_processed: true,
        tracker_update: true,
      },
      emailDigest: false,
    },
  })),
  row("POST", "/api/soundcloud/matches", [401, 403, 503, 503, 503, 503, 503], () => ({
    url: "/api/soundcloud/matches",
    payload: { title: "Song", artist: "Artist" },
  })),

  // votes
  row(
    "PUT",
    "/api/songs/:id/vote",
    [401, 403, 200, 200, 200, 200, 403],
    onFreshSong("/vote", () => ({ value: "up" })),
  ),
  row(
    "PUT",
    "/api/songs/:id/vote",
    HIDDEN_WRITE,
    onFreshSong("/vote", () => ({ value: "up" }), true),
    "hidden song",
  ),
  get("/api/songs/pending", MEMBERS),
  row("POST", "/api/songs/:id/verify", ADMINS, onFreshSong("/verify")),
  row("POST", "/api/songs/verify-all", SUPER_ADMIN, () => ({ url: "/api/songs/verify-all" })),
  row("GET", "/api/admin/songs/:id/voters", ADMINS, (fx) => ({ url: `/api/admin/songs/${fx.ids.song}/voters` })),
  row("PUT", "/api/admin/users/:id/votes-discounted", ADMINS, async (fx) => ({
    url: `/api/admin/users/${await fx.freshUser()}/votes-discounted`,
    payload: { discounted: true },
  })),

  // reports; own songs cannot be reported (spec §5)
  row(
    "POST",
    "/api/songs/:id/reports",
    [401, 403, 201, 201, 201, 201, 403],
    onFreshSong("/reports", () => ({ reason: "duplicate" })),
  ),
  needs("canManageReports", get("/api/reports", ADMINS)),
  // A report without a clip: admins who handle reports are told there is none (404); the rest are refused first.
  needs(
    "canManageReports",
    row("GET", "/api/reports/:id/clip", [401, 403, 403, 403, 404, 404, 403], async (fx) => ({
      url: `/api/reports/${await fx.freshReport()}/clip`,
    })),
  ),
  needs(
    "canManageReports",
    row("POST", "/api/reports/:id/process", ADMINS, async (fx) => ({
      url: `/api/reports/${await fx.freshReport()}/process`,
      payload: { action: "resolve" },
    })),
  ),
  needs(
    "canManageReports",
    row(
      "PUT",
      "/api/songs/:id/hidden",
      ADMINS,
      onFreshSong("/hidden", () => ({ hidden: true })),
    ),
  ),

  // edit suggestions
  row(
    "POST",
    "/api/songs/:id/edit-suggestions",
    [401, 403, 201, 201, 201, 201, 201],
    onFreshSong("/edit-suggestions", (fx) => ({ ...songFields(fx), reason: "matrix suggestion" })),
  ),
  needs("canEditAllSongs", get("/api/edit-suggestions", ADMINS)),
  needs(
    "canEditAllSongs",
    row("POST", "/api/edit-suggestions/:id/review", ADMINS, async (fx) => ({
      url: `/api/edit-suggestions/${await fx.freshSuggestion()}/review`,
      payload: { action: "reject" },
    })),
  ),

  // waitlist
  row("POST", "/api/waitlist", EVERYONE, (fx) => ({
    url: "/api/waitlist",
    payload: { name: "Matrix", email: fx.freshEmail() },
  })),
  get("/api/admin/waitlist", ADMINS),
  row("POST", "/api/admin/waitlist/:id/approve", ADMINS, async (fx) => ({
    url: `/api/admin/waitlist/${await fx.freshWaitlistEntry()}/approve`,
  })),
  // Those who may not approve try to approve themselves; admins approve a held account.
  row("POST", "/api/admin/users/:id/approve", ADMINS, async (fx, role) => {
    const self = fx.userId(role);
    const target = isAdmin(role) || !self ? await fx.freshUser({ held: true }) : self;
    return { url: `/api/admin/users/${target}/approve` };
  }),

  // admin: users, roles, audit log
  get("/api/admin/users", ADMINS),
  // Those who may not hand out roles try to make themselves admin; admins make a user a verified contributor.
  needs(
    "canManageAdmins",
    row("PUT", "/api/admin/users/:id/role", ADMINS, async (fx, role) => {
      const self = fx.userId(role);
      return isAdmin(role) || !self
        ? { url: `/api/admin/users/${await fx.freshUser()}/role`, payload: { role: "verified_contributor" } }
        : { url: `/api/admin/users/${self}/role`, payload: { role: "admin" } };
    }),
  ),
  get("/api/admin/audit", SUPER_ADMIN),

  // open data
  get("/api/export/songs.csv", EVERYONE),
  get("/api/export/songs.json", EVERYONE),

  // crawlers' documents (issue 28): the same for everyone; a sitemap file that does not exist is a 404
  get("/robots.txt", EVERYONE),
  get("/sitemap.xml", EVERYONE),
  get("/sitemaps/:file", EVERYONE, "/sitemaps/songs-1.xml"),
  row("GET", "/sitemaps/:file", NOT_FOUND, () => ({ url: "/sitemaps/songs-99.xml" }), "past the last file"),

  // imports (issue 16): admins holding canBulkImport. A made-up batch: 404 once past the permission check.
  needs(
    "canBulkImport",
    row("POST", "/api/imports/preview", IMPORTERS, (fx) => importFile(fx, "/api/imports/preview")),
  ),
  needs(
    "canBulkImport",
    row("POST", "/api/imports", [401, 403, 403, 403, 201, 201, 403], (fx) => importFile(fx, "/api/imports")),
  ),
  needs("canBulkImport", get("/api/imports", IMPORTERS)),
  needs("canBulkImport", get("/api/imports/:id", [401, 403, 403, 403, 404, 404, 403], "/api/imports/no-such-batch")),
  needs(
    "canBulkImport",
    row("POST", "/api/imports/:id/undo", [401, 403, 403, 403, 404, 404, 403], () => ({
      url: "/api/imports/no-such-batch/undo",
    })),
  ),

  // trackers linked to sheets (issue 37): admins holding canBulkImport; made-up links and batches are 404s
  needs("canBulkImport", get("/api/tracker-links", IMPORTERS)),
  needs(
    "canBulkImport",
    row("POST", "/api/tracker-links", [401, 403, 403, 403, 201, 201, 403], (fx) => ({
      url: "/api/tracker-links",
      payload: { artist: fx.unique("Linked Artist"), url: "https://sheets.example.invalid/tracker.csv" },
    })),
  ),
  needs("canBulkImport", get("/api/tracker-links/:id", IMPORTERS_NOT_FOUND, "/api/tracker-links/no-such-link")),
  needs(
    "canBulkImport",
    row("PUT", "/api/tracker-links/:id", IMPORTERS_NOT_FOUND, () => ({
      url: "/api/tracker-links/no-such-link",
      payload: { artist: "Somebody", url: "https://sheets.example.invalid/tracker.csv" },
    })),
  ),
  needs(
    "canBulkImport",
    row("PATCH", "/api/tracker-links/:id", IMPORTERS_NOT_FOUND, () => ({
      url: "/api/tracker-links/no-such-link",
      payload: { paused: true },
    })),
  ),
  needs(
    "canBulkImport",
    row("DELETE", "/api/tracker-links/:id", IMPORTERS_NOT_FOUND, () => ({ url: "/api/tracker-links/no-such-link" })),
  ),
  needs(
    "canBulkImport",
    row("POST", "/api/tracker-links/:id/sync", IMPORTERS_NOT_FOUND, () => ({
      url: "/api/tracker-links/no-such-link/sync",
    })),
  ),
  needs(
    "canBulkImport",
    row("POST", "/api/imports/:id/approve", IMPORTERS_NOT_FOUND, () => ({ url: "/api/imports/no-such-batch/approve" })),
  ),
  needs(
    "canBulkImport",
    row("POST", "/api/imports/:id/reject", IMPORTERS_NOT_FOUND, () => ({ url: "/api/imports/no-such-batch/reject" })),
  ),

  // fingerprints and recognition
  row("POST", "/api/recognition/pcm", SUPER_ADMIN, () => ({
    url: "/api/recognition/pcm?sampleRate=8000",
    payload: tone(8000),
    headers: { "content-type": "application/octet-stream" },
  })),
  row("POST", "/api/recognition/file", SUPER_ADMIN, () => {
    const body = multipart({}, { name: "clip.wav", data: wavFile(1, "matrix clip") });
    return { url: "/api/recognition/file", payload: body.payload, headers: body.headers };
  }),
  row("GET", "/api/songs/:id/fingerprints", ADMINS, (fx) => ({ url: `/api/songs/${fx.ids.song}/fingerprints` })),
  get("/api/admin/jobs", ADMINS),
  get("/api/admin/fingerprints/invariant", ADMINS),

  // Identify (issue 39, decision 032): every signed-in account, waitlisted ones too; it reads and writes nothing.
  row("POST", "/api/identify/pcm", SIGNED_IN, () => ({
    url: "/api/identify/pcm?sampleRate=8000",
    payload: tone(8000),
    headers: { "content-type": "application/octet-stream" },
  })),
  row("POST", "/api/identify/file", SIGNED_IN, () => {
    const body = multipart({}, { name: "clip.wav", data: wavFile(1, "matrix identify clip") });
    return { url: "/api/identify/file", payload: body.payload, headers: body.headers };
  }),
  // A report with the clip attached: members, as reports are; own songs cannot be reported.
  row("POST", "/api/identify/report", [401, 403, 201, 201, 201, 201, 403], async (fx) => {
    const body = multipart(
      { songId: await fx.freshSong(), reason: "wrong_title" },
      { name: "clip.wav", data: wavFile(1, "matrix report clip"), field: "clip" },
    );
    return { url: "/api/identify/report", payload: body.payload, headers: body.headers };
  }),
];

/** Routes outside /api/ the server answers itself: the documents for crawlers (modules/seo). */
const SERVER_DOCUMENTS = new Set(["/robots.txt", "/sitemap.xml", "/sitemaps/:file"]);

/**
 * Routes the matrix does not cover, and why: not API routes (the web app's files and pages; the crawlers'
 * documents are covered), the OpenAPI document and its UI, and HEAD (Fastify mirrors every GET; the GET row
 * covers it).
 */
export function isMatrixRoute(route: { method: string; url: string }): boolean {
  if (route.method === "HEAD" || route.method === "OPTIONS") return false;
  if (SERVER_DOCUMENTS.has(route.url)) return true;
  if (!route.url.startsWith("/api/")) return false;
  if (route.url === "/api/openapi.json" || route.url === "/api/docs" || route.url.startsWith("/api/docs/"))
    return false;
  return true;
}
