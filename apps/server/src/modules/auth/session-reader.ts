import { createHmac, timingSafeEqual } from "node:crypto";
import { compiledOnce } from "../../db/compiled-once.js";
import type { Database } from "../../db/database.js";
import { SESSION_COOKIE, SESSION_EXPIRES_IN_SEC, SESSION_UPDATE_AGE_SEC } from "./auth.js";

/** The signed-in user of a session, as the viewer needs it. */
export type SessionUser = { id: string; role: string; username: string; offWaitlist: boolean };

/** What the cookie says: no session, a live session with its user, or one Better Auth must look at. */
export type SessionRead = { kind: "none" } | { kind: "user"; user: SessionUser } | { kind: "delegate" };

/** The signed value of the session cookie in a Cookie header, if there is one. */
export function sessionCookieValue(cookie: string | undefined, name: string): string | undefined {
  if (!cookie) return undefined;
  const at = cookie.indexOf(`${name}=`);
  if (at === -1 || (at > 0 && cookie[at - 1] !== " " && cookie[at - 1] !== ";")) return undefined;
  const end = cookie.indexOf(";", at);
  const raw = cookie.slice(at + name.length + 1, end === -1 ? undefined : end);
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * Reads Better Auth's session cookie on the hot path: checks its HMAC signature (as better-call signs it)
 * and loads the session with its user in one indexed query. Better Auth's own getSession builds a whole
 * endpoint context and runs two queries; it is still asked whenever it has work to do: an expired
 * session (it deletes it) or one due for extension (it updates it).
 */
export function createSessionReader(deps: { database: Database; secret: string; secureCookies: boolean }) {
  const { db } = deps.database;
  const findSession = compiledOnce(db, (db, token: string) =>
    db
      .selectFrom("session")
      .innerJoin("user", "user.id", "session.user_id")
      .select(["user.id", "user.role", "user.username", "user.off_waitlist", "session.expires_at"])
      .where("session.token", "=", token),
  );
  const cookieName = deps.secureCookies ? `__Secure-${SESSION_COOKIE}` : SESSION_COOKIE;

  function verifiedToken(value: string): string | undefined {
    const dot = value.lastIndexOf(".");
    if (dot < 1) return undefined;
    const token = value.slice(0, dot);
    const signature = value.slice(dot + 1);
    if (signature.length !== 44 || !signature.endsWith("=")) return undefined;
    const expected = createHmac("sha256", deps.secret).update(token).digest();
    const given = Buffer.from(signature, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected) ? token : undefined;
  }

  return {
    async read(cookie: string | undefined): Promise<SessionRead> {
      const value = sessionCookieValue(cookie, cookieName);
      if (value === undefined) return { kind: "none" };
      const token = verifiedToken(value);
      if (!token) return { kind: "none" };
      const [row] = await findSession(token);
      if (!row) return { kind: "none" };
      const expiresAt = new Date(row.expires_at).getTime();
      const now = Date.now();
      const dueForUpdate = expiresAt - SESSION_EXPIRES_IN_SEC * 1000 + SESSION_UPDATE_AGE_SEC * 1000 <= now;
      if (!(expiresAt > now) || dueForUpdate) return { kind: "delegate" };
      return {
        kind: "user",
        user: { id: row.id, role: row.role, username: row.username, offWaitlist: Boolean(row.off_waitlist) },
      };
    },
  };
}

/** The session reader type. */
export type SessionReader = ReturnType<typeof createSessionReader>;
