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
 * - admin: role `admin` (reports, suggestions, waitlist, users, hiding, direct verify).
 * - super_admin: role `super_admin` (also delete, verify all, merge/verify artists, recognition, audit log).
 * - owner: a plain `user` who uploaded the song the route acts on; on artist routes it is the account whose
 *   artist page it is; elsewhere it is just another user.
 *
 * Each row names the registered route (method + URL pattern) and, optionally, a label when one route has more
 * than one row (a hidden song, "all" notifications). `request` builds the call for one role; rows whose call
 * succeeds by changing something use fresh objects from `fx`, so every row starts from the same state.
 * 401: sign in first; 403: signed in but not allowed (or held by the waitlist); 400: a made-up token, whoever
 * sends it; 404: the song is hidden from everyone but admins; 503: allowed, then the SoundCloud search says it is
 * not configured (no client id in tests).
 */
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
  ids: { song: string; hiddenSong: string; artist: string; owner: string };
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

/** The matrix. Columns: visitor, unverified, user, verified_contributor, admin, super_admin, owner. */
export const PERMISSION_MATRIX: MatrixCase[] = [
  // health
  {
    method: "GET",
    route: "/api/config",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/config" }),
  },
  {
    method: "GET",
    route: "/api/health",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/health" }),
  },

  // auth: open to everyone; the signed-in roles get the same answers
  {
    method: "POST",
    route: "/api/auth/register",
    expect: [201, 201, 201, 201, 201, 201, 201],
    request: (fx) => {
      const email = fx.freshEmail();
      return { url: "/api/auth/register", payload: { email, password: fx.password, confirmPassword: fx.password } };
    },
  },
  {
    method: "POST",
    route: "/api/auth/login",
    expect: [200, 200, 200, 200, 200, 200, 200],
    // Signing in again replaces the session the request carried: the role goes on with the new one.
    request: (fx, role) => ({
      url: "/api/auth/login",
      payload: { email: fx.emailOf(role), password: fx.password },
      newSession: true,
    }),
  },
  {
    method: "POST",
    route: "/api/auth/logout",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: async (fx, role) => ({ url: "/api/auth/logout", cookie: (await fx.freshCookie(role)) ?? null }),
  },
  {
    method: "POST",
    route: "/api/auth/resend-verification",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: (fx, role) => ({ url: "/api/auth/resend-verification", payload: { email: fx.emailOf(role) } }),
  },
  {
    method: "GET",
    route: "/api/auth/verify-email",
    label: "a made-up token",
    expect: [400, 400, 400, 400, 400, 400, 400],
    request: () => ({ url: "/api/auth/verify-email?token=not-a-token", headers: { accept: "application/json" } }),
  },
  {
    method: "POST",
    route: "/api/auth/forgot-password",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: (fx, role) => ({ url: "/api/auth/forgot-password", payload: { email: fx.emailOf(role) } }),
  },
  {
    method: "POST",
    route: "/api/auth/reset-password",
    label: "a made-up token",
    expect: [400, 400, 400, 400, 400, 400, 400],
    request: (fx) => ({
      url: "/api/auth/reset-password",
      payload: { token: "not-a-token", newPassword: fx.password, confirmPassword: fx.password },
    }),
  },
  {
    method: "POST",
    route: "/api/auth/change-password",
    expect: [401, 200, 200, 200, 200, 200, 200],
    // Other sessions are revoked: the role goes on with the session the answer sets.
    request: (fx) => ({
      url: "/api/auth/change-password",
      payload: { currentPassword: fx.password, newPassword: fx.password, confirmPassword: fx.password },
      newSession: true,
    }),
  },

  // the signed-in user's own profile
  { method: "GET", route: "/api/me", expect: [401, 200, 200, 200, 200, 200, 200], request: () => ({ url: "/api/me" }) },
  {
    method: "GET",
    route: "/api/session",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/session" }),
  },
  {
    method: "PATCH",
    route: "/api/me",
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: (fx) => ({ url: "/api/me", payload: { username: fx.unique("name") } }),
  },
  {
    method: "GET",
    route: "/api/events",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/events", stream: true }),
  },

  // songs
  {
    method: "GET",
    route: "/api/songs",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/songs" }),
  },
  {
    method: "GET",
    route: "/api/songs/recommendations",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/songs/recommendations" }),
  },
  {
    method: "GET",
    route: "/api/landing/tracks",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/landing/tracks" }),
  },
  {
    method: "GET",
    route: "/api/me/favorites",
    expect: [401, 403, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/me/favorites" }),
  },
  {
    method: "GET",
    route: "/api/songs/:id",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: (fx) => ({ url: `/api/songs/${fx.ids.song}` }),
  },
  {
    method: "GET",
    route: "/api/songs/:id",
    label: "hidden song",
    expect: [404, 404, 404, 404, 200, 200, 404],
    request: (fx) => ({ url: `/api/songs/${fx.ids.hiddenSong}` }),
  },
  {
    method: "GET",
    route: "/api/songs/:id/history",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: (fx) => ({ url: `/api/songs/${fx.ids.song}/history` }),
  },
  {
    method: "GET",
    route: "/api/songs/:id/history",
    label: "hidden song",
    expect: [404, 404, 404, 404, 200, 200, 404],
    request: (fx) => ({ url: `/api/songs/${fx.ids.hiddenSong}/history` }),
  },
  {
    method: "GET",
    route: "/api/songs/:id/audio",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: (fx) => ({ url: `/api/songs/${fx.ids.song}/audio` }),
  },
  {
    method: "GET",
    route: "/api/songs/:id/audio",
    label: "hidden song",
    expect: [404, 404, 404, 404, 200, 200, 404],
    request: (fx) => ({ url: `/api/songs/${fx.ids.hiddenSong}/audio` }),
  },
  {
    method: "GET",
    route: "/api/songs/:id/cover.svg",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: (fx) => ({ url: `/api/songs/${fx.ids.song}/cover.svg` }),
  },
  {
    method: "GET",
    route: "/api/songs/:id/cover.svg",
    label: "hidden song",
    expect: [404, 404, 404, 404, 200, 200, 404],
    request: (fx) => ({ url: `/api/songs/${fx.ids.hiddenSong}/cover.svg` }),
  },
  {
    method: "POST",
    route: "/api/songs",
    expect: [401, 403, 201, 201, 201, 201, 201],
    request: (fx) => {
      const title = fx.unique("Upload");
      const body = multipart(
        { title, artists: ["Matrix Uploader"], genre: "Pop" },
        { name: "song.wav", data: wavFile(1, title) },
      );
      return { url: "/api/songs", payload: body.payload, headers: body.headers };
    },
  },
  {
    method: "PATCH",
    route: "/api/songs/:id",
    // The owner and admins edit directly (200); a verified contributor's edit goes to review (202).
    expect: [401, 403, 403, 202, 200, 200, 200],
    request: async (fx) => ({
      url: `/api/songs/${await fx.freshSong()}`,
      payload: { ...songFields(fx), comment: "matrix edit" },
    }),
  },
  {
    method: "PATCH",
    route: "/api/songs/:id",
    label: "hidden song",
    expect: [401, 403, 404, 404, 200, 200, 404],
    request: async (fx) => ({
      url: `/api/songs/${await fx.freshSong({ hidden: true })}`,
      payload: { ...songFields(fx), comment: "matrix edit" },
    }),
  },
  {
    method: "DELETE",
    route: "/api/songs/:id",
    expect: [401, 403, 403, 403, 403, 200, 403],
    request: async (fx) => ({ url: `/api/songs/${await fx.freshSong()}` }),
  },
  {
    method: "PUT",
    route: "/api/songs/:id/favorite",
    expect: [401, 403, 200, 200, 200, 200, 200],
    // The owner's favourite of the shared song is theirs alone.
    request: (fx, role) => ({
      url: `/api/songs/${fx.ids.song}/favorite`,
      ...(notOwner(role)
        ? { untouched: () => fx.row("favorite", { song_id: fx.ids.song, user_id: fx.ids.owner }) }
        : {}),
    }),
  },
  {
    method: "DELETE",
    route: "/api/songs/:id/favorite",
    expect: [401, 403, 200, 200, 200, 200, 200],
    request: (fx, role) => ({
      url: `/api/songs/${fx.ids.song}/favorite`,
      ...(notOwner(role)
        ? { untouched: () => fx.row("favorite", { song_id: fx.ids.song, user_id: fx.ids.owner }) }
        : {}),
    }),
  },
  {
    method: "PUT",
    route: "/api/songs/:id/favorite",
    label: "hidden song",
    expect: [401, 403, 404, 404, 200, 200, 404],
    request: async (fx) => ({ url: `/api/songs/${await fx.freshSong({ hidden: true })}/favorite` }),
  },
  {
    method: "GET",
    route: "/api/search",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/search?q=matrix" }),
  },

  // artists: the shared placeholder artist; PATCH acts on the owner's own artist page
  {
    method: "GET",
    route: "/api/artists/:id",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: (fx) => ({ url: `/api/artists/${fx.ids.artist}` }),
  },
  {
    method: "GET",
    route: "/api/artists/:id/songs",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: (fx) => ({ url: `/api/artists/${fx.ids.artist}/songs` }),
  },
  {
    method: "PUT",
    route: "/api/artists/:id/follow",
    // Open to waitlisted accounts, as the artist page is (the browser tests follow with unapproved members).
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: (fx, role) => ({
      url: `/api/artists/${fx.ids.artist}/follow`,
      ...(notOwner(role)
        ? { untouched: () => fx.row("follow", { artist_id: fx.ids.artist, follower_id: fx.ids.owner }) }
        : {}),
    }),
  },
  {
    method: "DELETE",
    route: "/api/artists/:id/follow",
    // Open to waitlisted accounts, as the artist page is (the browser tests follow with unapproved members).
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: (fx, role) => ({
      url: `/api/artists/${fx.ids.artist}/follow`,
      ...(notOwner(role)
        ? { untouched: () => fx.row("follow", { artist_id: fx.ids.artist, follower_id: fx.ids.owner }) }
        : {}),
    }),
  },
  {
    method: "PATCH",
    route: "/api/artists/:id",
    expect: [401, 403, 403, 403, 200, 200, 200],
    request: (fx) => ({
      url: `/api/artists/${fx.ids.owner}`,
      payload: { bio: fx.unique("bio"), instagram: null, twitter: null, website: null },
    }),
  },
  {
    method: "POST",
    route: "/api/admin/artists/merge",
    expect: [401, 403, 403, 403, 403, 200, 403],
    request: async (fx) => ({
      url: "/api/admin/artists/merge",
      payload: {
        keepId: await fx.freshUser({ placeholderArtist: true }),
        mergeId: await fx.freshUser({ placeholderArtist: true }),
      },
    }),
  },
  {
    method: "POST",
    route: "/api/admin/artists/:id/claim",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: async (fx) => ({
      url: `/api/admin/artists/${await fx.freshUser({ placeholderArtist: true })}/claim`,
      payload: { userId: await fx.freshUser() },
    }),
  },
  {
    method: "PUT",
    route: "/api/admin/artists/:id/verified",
    expect: [401, 403, 403, 403, 403, 200, 403],
    request: async (fx) => ({
      url: `/api/admin/artists/${await fx.freshUser({ placeholderArtist: true })}/verified`,
      payload: { verified: true },
    }),
  },

  // notifications: each sees and marks only their own
  {
    method: "GET",
    route: "/api/notifications",
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/notifications" }),
  },
  {
    method: "POST",
    route: "/api/notifications/:id/read",
    label: "the owner's notification",
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: async (fx, role) => {
      const id = await fx.freshNotification();
      return {
        url: `/api/notifications/${id}/read`,
        ...(notOwner(role) ? { untouched: () => fx.row("notification", { id }) } : {}),
      };
    },
  },
  {
    method: "POST",
    route: "/api/notifications/:id/read",
    label: "all",
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: async (fx, role) => {
      const id = await fx.freshNotification();
      return {
        url: "/api/notifications/all/read",
        ...(notOwner(role) ? { untouched: () => fx.row("notification", { id }) } : {}),
      };
    },
  },
  {
    method: "GET",
    route: "/api/me/notification-settings",
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/me/notification-settings" }),
  },
  {
    method: "PUT",
    route: "/api/me/notification-settings",
    expect: [401, 200, 200, 200, 200, 200, 200],
    request: () => ({
      url: "/api/me/notification-settings",
      payload: {
        kinds: {
          new_song: true,
          song_verified: false,
          song_unverified: true,
          report_processed: true,
          suggestion_processed: true,
        },
        emailDigest: false,
      },
    }),
  },
  {
    method: "POST",
    route: "/api/soundcloud/matches",
    expect: [401, 403, 503, 503, 503, 503, 503],
    request: () => ({ url: "/api/soundcloud/matches", payload: { title: "Song", artist: "Artist" } }),
  },

  // votes
  {
    method: "PUT",
    route: "/api/songs/:id/vote",
    expect: [401, 403, 200, 200, 200, 200, 403],
    request: async (fx) => ({ url: `/api/songs/${await fx.freshSong()}/vote`, payload: { value: "up" } }),
  },
  {
    method: "PUT",
    route: "/api/songs/:id/vote",
    label: "hidden song",
    expect: [401, 403, 404, 404, 200, 200, 404],
    request: async (fx) => ({
      url: `/api/songs/${await fx.freshSong({ hidden: true })}/vote`,
      payload: { value: "up" },
    }),
  },
  {
    method: "GET",
    route: "/api/songs/pending",
    expect: [401, 403, 200, 200, 200, 200, 200],
    request: () => ({ url: "/api/songs/pending" }),
  },
  {
    method: "POST",
    route: "/api/songs/:id/verify",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: async (fx) => ({ url: `/api/songs/${await fx.freshSong()}/verify` }),
  },
  {
    method: "POST",
    route: "/api/songs/verify-all",
    expect: [401, 403, 403, 403, 403, 200, 403],
    request: () => ({ url: "/api/songs/verify-all" }),
  },
  {
    method: "GET",
    route: "/api/admin/songs/:id/voters",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: (fx) => ({ url: `/api/admin/songs/${fx.ids.song}/voters` }),
  },
  {
    method: "PUT",
    route: "/api/admin/users/:id/votes-discounted",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: async (fx) => ({
      url: `/api/admin/users/${await fx.freshUser()}/votes-discounted`,
      payload: { discounted: true },
    }),
  },

  // reports
  {
    method: "POST",
    route: "/api/songs/:id/reports",
    // Own songs cannot be reported (spec §5).
    expect: [401, 403, 201, 201, 201, 201, 403],
    request: async (fx) => ({ url: `/api/songs/${await fx.freshSong()}/reports`, payload: { reason: "duplicate" } }),
  },
  {
    method: "GET",
    route: "/api/reports",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: () => ({ url: "/api/reports" }),
  },
  {
    method: "POST",
    route: "/api/reports/:id/process",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: async (fx) => ({ url: `/api/reports/${await fx.freshReport()}/process`, payload: { action: "resolve" } }),
  },
  {
    method: "PUT",
    route: "/api/songs/:id/hidden",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: async (fx) => ({ url: `/api/songs/${await fx.freshSong()}/hidden`, payload: { hidden: true } }),
  },

  // edit suggestions
  {
    method: "POST",
    route: "/api/songs/:id/edit-suggestions",
    expect: [401, 403, 201, 201, 201, 201, 201],
    request: async (fx) => ({
      url: `/api/songs/${await fx.freshSong()}/edit-suggestions`,
      payload: { ...songFields(fx), reason: "matrix suggestion" },
    }),
  },
  {
    method: "GET",
    route: "/api/edit-suggestions",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: () => ({ url: "/api/edit-suggestions" }),
  },
  {
    method: "POST",
    route: "/api/edit-suggestions/:id/review",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: async (fx) => ({
      url: `/api/edit-suggestions/${await fx.freshSuggestion()}/review`,
      payload: { action: "reject" },
    }),
  },

  // waitlist
  {
    method: "POST",
    route: "/api/waitlist",
    expect: [200, 200, 200, 200, 200, 200, 200],
    request: (fx) => ({ url: "/api/waitlist", payload: { name: "Matrix", email: fx.freshEmail() } }),
  },
  {
    method: "GET",
    route: "/api/admin/waitlist",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: () => ({ url: "/api/admin/waitlist" }),
  },
  {
    method: "POST",
    route: "/api/admin/waitlist/:id/approve",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: async (fx) => ({ url: `/api/admin/waitlist/${await fx.freshWaitlistEntry()}/approve` }),
  },
  {
    method: "POST",
    route: "/api/admin/users/:id/approve",
    // Those who may not approve try to approve themselves; admins approve a held account.
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: async (fx, role) => {
      const self = fx.userId(role);
      const admin = role === "admin" || role === "super_admin";
      const target = admin || !self ? await fx.freshUser({ held: true }) : self;
      return { url: `/api/admin/users/${target}/approve` };
    },
  },

  // admin: users, roles, audit log
  {
    method: "GET",
    route: "/api/admin/users",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: () => ({ url: "/api/admin/users" }),
  },
  {
    method: "PUT",
    route: "/api/admin/users/:id/role",
    // Those who may not hand out roles try to make themselves admin; admins make a user a verified contributor.
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: async (fx, role) => {
      const self = fx.userId(role);
      const admin = role === "admin" || role === "super_admin";
      return admin || !self
        ? { url: `/api/admin/users/${await fx.freshUser()}/role`, payload: { role: "verified_contributor" } }
        : { url: `/api/admin/users/${self}/role`, payload: { role: "admin" } };
    },
  },
  {
    method: "GET",
    route: "/api/admin/audit",
    expect: [401, 403, 403, 403, 403, 200, 403],
    request: () => ({ url: "/api/admin/audit" }),
  },

  // fingerprints and recognition
  {
    method: "POST",
    route: "/api/recognition/pcm",
    expect: [401, 403, 403, 403, 403, 200, 403],
    request: () => {
      // One second of a 440 Hz tone at 8 kHz, 16-bit mono.
      const pcm = Buffer.alloc(16_000);
      for (let i = 0; i < 8000; i++)
        pcm.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / 8000) * 8000), i * 2);
      return {
        url: "/api/recognition/pcm?sampleRate=8000",
        payload: pcm,
        headers: { "content-type": "application/octet-stream" },
      };
    },
  },
  {
    method: "POST",
    route: "/api/recognition/file",
    expect: [401, 403, 403, 403, 403, 200, 403],
    request: () => {
      const body = multipart({}, { name: "clip.wav", data: wavFile(1, "matrix clip") });
      return { url: "/api/recognition/file", payload: body.payload, headers: body.headers };
    },
  },
  {
    method: "GET",
    route: "/api/songs/:id/fingerprints",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: (fx) => ({ url: `/api/songs/${fx.ids.song}/fingerprints` }),
  },
  {
    method: "GET",
    route: "/api/admin/jobs",
    expect: [401, 403, 403, 403, 200, 200, 403],
    request: () => ({ url: "/api/admin/jobs" }),
  },
];

/**
 * Routes the matrix does not cover, and why: not API routes (the web app's files and pages), the OpenAPI
 * document and its UI, and HEAD (Fastify mirrors every GET; the GET row covers it).
 */
export function isMatrixRoute(route: { method: string; url: string }): boolean {
  if (route.method === "HEAD" || route.method === "OPTIONS") return false;
  if (!route.url.startsWith("/api/")) return false;
  if (route.url === "/api/openapi.json" || route.url === "/api/docs" || route.url.startsWith("/api/docs/"))
    return false;
  return true;
}
