import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { ADMIN_PERMISSIONS, POINTS_FOR_VERIFIED_SONG, POINTS_PER_VOTE, VERIFICATION_THRESHOLD } from "@unheard/shared";
import { hashPassword } from "better-auth/crypto";
import type { FastifyBaseLogger } from "fastify";
import { sql } from "kysely";
import type { Config } from "../config.js";
import type { Database } from "../db/database.js";
import { analyzeAudioFile, sniffAudio } from "../lib/audio.js";
import { newId } from "../lib/ids.js";
import { enqueueJob } from "../lib/jobs.js";
import { type AudioStorage, createStorage } from "../lib/storage.js";
import { nameKey } from "../lib/text.js";
import { nowIso } from "../lib/time.js";
import { encodeWav } from "../lib/wav.js";
import { INDEX_JOB } from "../modules/fingerprints/fingerprints.service.js";
import { createSongsRepo } from "../modules/songs/songs.repo.js";
import { DEMO_ACCOUNTS, DEMO_FANS, DEMO_SONGS } from "./demo-data.js";
import { hashString, synthesizeTrack } from "./synth.js";

const DEMO_SAMPLE_RATE = 22_050;
const DEMO_SECONDS = 20;

type Trx = Parameters<Parameters<Database["tx"]>[0]>[0];

/** Create the demo accounts, artists, songs, votes and favourites; idempotent. */
export async function seedDemo(opts: {
  database: Database;
  config: Config;
  log: Pick<FastifyBaseLogger, "info">;
  onlyIfEmpty?: boolean;
}): Promise<{ summary: string } | undefined> {
  const { database } = opts;
  if (opts.onlyIfEmpty) {
    const row = await database.db.selectFrom("user").select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
    if (Number(row.n) > 0) return undefined;
  }
  // Hash outside the transaction: scrypt is slow and must not hold the write lock.
  const hashes = new Map<string, string>();
  for (const a of DEMO_ACCOUNTS) hashes.set(a.email, await hashPassword(a.password));
  const fanHash = await hashPassword(`fan-${newId()}`);
  const songsRepo = createSongsRepo(database);
  const storage = createStorage(opts.config);
  const audio = await prepareAudio(opts.config.dataDir, storage);

  const created = await database.tx(async (trx) => {
    let songsCreated = 0;
    const accountIds: Record<string, string> = {};
    for (const a of DEMO_ACCOUNTS) {
      accountIds[a.role] = await ensureUser(trx, {
        email: a.email,
        username: a.username,
        role: a.role,
        passwordHash: hashes.get(a.email) ?? "",
      });
      if (a.role !== "user") {
        const perms = Object.fromEntries(ADMIN_PERMISSIONS.map((p) => [p, a.role === "super_admin"]));
        await trx
          .insertInto("admin")
          .values({
            user_id: accountIds[a.role] ?? "",
            permissions: JSON.stringify(perms),
            added_by: null,
            added_at: nowIso(),
            last_active: null,
          })
          .onConflict((oc) => oc.column("user_id").doNothing())
          .execute();
      }
    }
    const fans: string[] = [];
    for (const f of DEMO_FANS) {
      fans.push(
        await ensureUser(trx, { email: `${f}@unheard.local`, username: f, role: "user", passwordHash: fanHash }),
      );
    }
    const voters = [...fans, accountIds.admin ?? ""];
    const submitter = accountIds.user ?? "";

    for (const [i, s] of DEMO_SONGS.entries()) {
      const titleKey = nameKey(s.title);
      const exists = await trx.selectFrom("song").select("id").where("title_key", "=", titleKey).executeTakeFirst();
      if (exists) continue;
      songsCreated++;
      const songId = newId();
      // Spread creation times over the last weeks so "newest" and "trending" differ.
      const createdAt = new Date(Date.now() - (DEMO_SONGS.length - i) * 36e5 * 20).toISOString();
      const clip = audio.get(s.title);
      const release =
        s.releaseInDays === undefined
          ? null
          : new Date(Date.now() + s.releaseInDays * 864e5).toISOString().slice(0, 10);
      await trx
        .insertInto("song")
        .values({
          id: songId,
          title: s.title,
          title_key: titleKey,
          genre: s.genre,
          release_date: release,
          soundcloud_url: s.soundcloud ?? null,
          submitted_by: submitter,
          audio_key: clip?.key ?? null,
          audio_mime: clip ? "audio/wav" : null,
          audio_size: clip?.size ?? null,
          audio_sha256: clip?.sha256 ?? null,
          duration_sec: clip?.analysis.durationSec ?? null,
          sample_rate: clip?.analysis.sampleRate ?? null,
          channels: clip?.analysis.channels ?? null,
          audio_min: clip?.analysis.stats.min ?? null,
          audio_max: clip?.analysis.stats.max ?? null,
          audio_mean: clip?.analysis.stats.mean ?? null,
          silence_ratio: clip?.analysis.stats.silenceRatio ?? null,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .execute();
      const artistIds: string[] = [];
      for (const name of s.artists) artistIds.push(await songsRepo.ensureArtist(trx, name));
      await songsRepo.setArtists(trx, songId, artistIds);
      await songsRepo.indexSearch(trx, songId, s.title, s.artists);
      // Fingerprinted by the server's job loop like any upload, so recognition knows the demo songs.
      if (clip) await enqueueJob(trx, INDEX_JOB, { songId });
      const ups = Math.max(0, s.votes);
      const downs = Math.max(0, -s.votes);
      for (let v = 0; v < ups + downs; v++) {
        const voter = voters[v % voters.length] ?? "";
        await trx
          .insertInto("vote")
          .values({
            song_id: songId,
            user_id: voter,
            value: v < ups ? 1 : -1,
            reason: v < ups ? null : "low_quality",
            details: null,
            created_at: createdAt,
            updated_at: createdAt,
          })
          .execute();
        await ledger(trx, voter, POINTS_PER_VOTE, "vote", songId);
      }
      for (let f = 0; f < s.favorites; f++) {
        // Recent favourites make the trending list; the rest are older.
        const favAt = new Date(Date.now() - (f + 1) * 36e5 * (i % 3 === 0 ? 30 : 5)).toISOString();
        await trx
          .insertInto("favorite")
          .values({ song_id: songId, user_id: fans[f % fans.length] ?? "", created_at: favAt })
          .execute();
      }
      const verified = ups - downs >= VERIFICATION_THRESHOLD;
      // Counters are derived from the rows just written, never typed in.
      await trx
        .updateTable("song")
        .set({
          upvotes: sql`(select count(*) from vote where vote.song_id = song.id and value = 1)`,
          downvotes: sql`(select count(*) from vote where vote.song_id = song.id and value = -1)`,
          favorite_count: sql`(select count(*) from favorite where favorite.song_id = song.id)`,
          status: verified ? "verified" : "pending",
          verified_at: verified ? createdAt : null,
        })
        .where("id", "=", songId)
        .execute();
      if (verified) await ledger(trx, submitter, POINTS_FOR_VERIFIED_SONG, "song_verified", songId);
    }
    // Points always equal the ledger.
    await trx
      .updateTable("user")
      .set({ points: sql`coalesce((select sum(delta) from points_ledger where points_ledger.user_id = "user".id), 0)` })
      .execute();
    return songsCreated;
  });

  const lines = [
    `Demo data ready (${created} new songs). Demo accounts:`,
    ...DEMO_ACCOUNTS.map((a) => `  ${a.role.padEnd(11)} ${a.email}  password: ${a.password}`),
  ];
  return { summary: lines.join("\n") };
}

async function ensureUser(
  trx: Trx,
  u: { email: string; username: string; role: string; passwordHash: string },
): Promise<string> {
  const existing = await trx.selectFrom("user").select("id").where("email", "=", u.email).executeTakeFirst();
  if (existing) return existing.id;
  const id = newId();
  const now = nowIso();
  await trx
    .insertInto("user")
    .values({
      id,
      name: u.username,
      email: u.email,
      email_verified: true,
      image: null,
      created_at: now,
      updated_at: now,
      username: u.username,
      username_key: nameKey(u.username),
      role: u.role,
      off_waitlist: true,
      instagram: null,
      twitter: null,
      website: null,
    })
    .execute();
  await trx
    .insertInto("account")
    .values({
      id: newId(),
      account_id: id,
      provider_id: "credential",
      user_id: id,
      password: u.passwordHash,
      access_token: null,
      refresh_token: null,
      id_token: null,
      access_token_expires_at: null,
      refresh_token_expires_at: null,
      scope: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

async function ledger(trx: Trx, userId: string, delta: number, reason: string, ref: string): Promise<void> {
  await trx
    .insertInto("points_ledger")
    .values({ id: newId(), user_id: userId, delta, reason, ref, created_at: nowIso() })
    .execute();
}

type DemoClip = { key: string; size: number; sha256: string; analysis: Awaited<ReturnType<typeof analyzeAudioFile>> };

/** Synthesize each demo song's audio once and store it like an upload. */
async function prepareAudio(dataDir: string, storage: AudioStorage): Promise<Map<string, DemoClip>> {
  const clips = new Map<string, DemoClip>();
  const tmp = path.join(dataDir, "tmp");
  await mkdir(tmp, { recursive: true });
  for (const s of DEMO_SONGS) {
    const wav = encodeWav(synthesizeTrack(hashString(s.title), DEMO_SECONDS, DEMO_SAMPLE_RATE), DEMO_SAMPLE_RATE);
    const sha256 = createHash("sha256").update(wav).digest("hex");
    const key = `demo-${sha256.slice(0, 16)}.wav`;
    const format = sniffAudio(wav);
    if (!format) throw new Error("demo audio is not recognised as WAV");
    const file = path.join(tmp, `${key}.tmp`);
    await writeFile(file, wav);
    const analysis = await analyzeAudioFile(file, format);
    await storage.putFile(key, file);
    clips.set(s.title, { key, size: wav.length, sha256, analysis });
  }
  return clips;
}
