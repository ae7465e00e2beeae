import { readdirSync } from "node:fs";
import path from "node:path";
import { Mp3Encoder } from "@breezystack/lamejs";
import { ADMIN_PERMISSIONS, type AdminPermission, NOTIFICATION_KINDS } from "@unheard/shared";
import { sql } from "kysely";
import { beforeAll } from "vitest";
import type { DB } from "../db/schema.js";
import { encodeWav } from "../lib/wav.js";
import { hashString, synthesizeTrack } from "../seed/synth.js";
import { signUp, type TestContext } from "./harness.js";

/** A real WAV file: a synthesized tune unique to `seed`. */
export function wavFile(seconds = 3, seed = "tune", sampleRate = 22_050): Buffer {
  return encodeWav(synthesizeTrack(hashString(seed), seconds, sampleRate), sampleRate);
}

/** A real MP3 file (LAME-encoded synthesized tune). */
export function mp3File(seconds = 3, seed = "mp3 tune", sampleRate = 44_100): Buffer {
  const pcm = synthesizeTrack(hashString(seed), seconds, sampleRate);
  const ints = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) ints[i] = Math.round((pcm[i] ?? 0) * 32767);
  const enc = new Mp3Encoder(1, sampleRate, 128);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < ints.length; i += 1152) parts.push(enc.encodeBuffer(ints.subarray(i, i + 1152)));
  parts.push(enc.flush());
  return Buffer.concat(parts.map((p) => Buffer.from(p)));
}

/** A multipart/form-data body, as a browser's FormData would send it. */
export function multipart(
  fields: Record<string, string | string[]>,
  file?: { name: string; data: Buffer; type?: string; field?: string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----unheard${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${v}\r\n`));
    }
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "audio"}"; filename="${file.name}"\r\nContent-Type: ${file.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
      file.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

/** Upload a song through the API: the form's fields (genre Pop unless given, any extra field such as leak details). */
export function upload(
  ctx: TestContext,
  cookie: string | undefined,
  fields: { title?: string; artists?: string[]; genre?: string; [field: string]: string | string[] | undefined },
  file: { name: string; data: Buffer; type?: string } | null = {
    name: "song.wav",
    data: wavFile(2, fields.title ?? "x"),
  },
) {
  const given = Object.entries(fields).filter((e): e is [string, string | string[]] => e[1] !== undefined);
  const body = multipart({ genre: "Pop", ...Object.fromEntries(given) }, file ?? undefined);
  return ctx.app.inject({
    method: "POST",
    url: "/api/songs",
    payload: body.payload,
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
  });
}

/** A signed-in member: its session cookie and user id. */
export type User = { cookie: string; id: string; ip?: string; device?: string };

/** A signed-in member let in from the waitlist, with an optional role; returns its cookie and id. */
export async function member(
  ctx: TestContext,
  email: string,
  role = "user",
  origin: { ip?: string; device?: string } = {},
): Promise<User> {
  const cookie = await signUp(ctx, email, undefined, origin);
  const row = await ctx.database.db
    .selectFrom("user")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  await ctx.database.db.updateTable("user").set({ off_waitlist: true, role }).where("id", "=", row.id).execute();
  // Admin permissions are enforced (issue 24): a test's admin holds them all unless the test says otherwise.
  if (role === "admin") await grantAdmin(ctx, row.id, ADMIN_PERMISSIONS);
  return { cookie, id: row.id, ...origin };
}

/** Set the admin record of `userId` to grant exactly `permissions` (spec §3 Admin). */
export async function grantAdmin(
  ctx: TestContext,
  userId: string,
  permissions: readonly AdminPermission[],
): Promise<void> {
  const granted = JSON.stringify(Object.fromEntries(ADMIN_PERMISSIONS.map((p) => [p, permissions.includes(p)])));
  await ctx.database.db
    .insertInto("admin")
    .values({
      user_id: userId,
      permissions: granted,
      added_by: null,
      added_at: new Date().toISOString(),
      last_active: null,
    })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ permissions: granted }))
    .execute();
}

/** Mark songs verified directly (the voting issue adds the real path). */
export async function verify(ctx: TestContext, ...ids: string[]): Promise<void> {
  await ctx.database.db
    .updateTable("song")
    .set({ status: "verified", verified_at: new Date().toISOString() })
    .where("id", "in", ids)
    .execute();
  await ctx.app.songsWritten(ids);
}

/**
 * The members a suite's tests act as, signed up in the order given before them: `{ name: email }` or
 * `{ name: [email, role] }`. Each user returned is filled in by then.
 */
export function useMembers<K extends string>(
  ctx: TestContext,
  emails: Record<K, string | [email: string, role: string]>,
): Record<K, User> {
  const entries = Object.entries(emails) as [K, string | [string, string]][];
  const users = Object.fromEntries(entries.map(([name]) => [name, {} as User])) as Record<K, User>;
  beforeAll(async () => {
    for (const [name, spec] of entries) {
      const [email, role] = typeof spec === "string" ? [spec, undefined] : spec;
      Object.assign(users[name], await member(ctx, email, role));
    }
  });
  return users;
}

/** The cast of a moderation suite: a song's owner, another member and an admin, e-mails tagged with `tag`. */
export function useOwnerFanAdmin(ctx: TestContext, tag: string) {
  return useMembers(ctx, {
    owner: `owner-${tag}@example.com`,
    fan: `fan-${tag}@example.com`,
    admin: [`admin-${tag}@example.com`, "admin"],
  });
}

/** The names of the files in a folder of the data dir; none when it does not exist yet. */
export function dataFiles(dataDir: string, sub: string): string[] {
  try {
    return readdirSync(path.join(dataDir, sub));
  } catch {
    return [];
  }
}

/** GET a song's audio, with range or revalidation headers. */
export function fetchAudio(ctx: TestContext, url: string, headers: Record<string, string> = {}) {
  return ctx.app.inject({ method: "GET", url, headers });
}

/** Vote on a song as the holder of `cookie`: PUT /api/songs/:id/vote. */
export function vote(ctx: TestContext, cookie: string, songId: string, value: "up" | "down" | "none") {
  return ctx.app.inject({ method: "PUT", url: `/api/songs/${songId}/vote`, headers: { cookie }, payload: { value } });
}

/** Notification settings with every kind on: what a new account starts with. */
export function everyKind(emailDigest: boolean) {
  return { kinds: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, true])), emailDigest };
}

/** GET `url` as a visitor, or with a member's cookie, from an address of its own when given. */
export const getAs = (ctx: TestContext, url: string, opts: { cookie?: string; ip?: string } = {}) =>
  ctx.app.inject({
    method: "GET",
    url,
    headers: opts.cookie ? { cookie: opts.cookie } : {},
    ...(opts.ip ? { remoteAddress: opts.ip } : {}),
  });

/** The profile of the holder of `cookie`: GET /api/me. */
export function getMe(ctx: TestContext, cookie: string) {
  return ctx.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
}

/** Edit the profile as the holder of `cookie` (a visitor without one): PATCH /api/me. */
export function patchMe(ctx: TestContext, cookie: string | undefined, payload: object) {
  return ctx.app.inject({ method: "PATCH", url: "/api/me", headers: cookie ? { cookie } : {}, payload });
}

/** A number stored on one row (points, a counter), the row found by one of its columns. */
export async function storedNumber<T extends "user" | "song">(
  ctx: TestContext,
  table: T,
  column: keyof DB[T] & string,
  where: [column: keyof DB[T] & string, value: string],
): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`
    select ${sql.ref(column)} as n from ${sql.table(table)} where ${sql.ref(where[0])} = ${where[1]}`.execute(
    ctx.database.db,
  );
  if (!rows[0]) throw new Error(`no ${table} with ${where[0]} ${where[1]}`);
  return Number(rows[0].n);
}
