import { Mp3Encoder } from "@breezystack/lamejs";
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

/** Upload a song through the API. */
export function upload(
  ctx: TestContext,
  cookie: string | undefined,
  fields: { title?: string; artists?: string[]; genre?: string; releaseDate?: string; soundcloudUrl?: string },
  file: { name: string; data: Buffer; type?: string } | null = {
    name: "song.wav",
    data: wavFile(2, fields.title ?? "x"),
  },
) {
  const body = multipart(
    {
      ...(fields.title !== undefined ? { title: fields.title } : {}),
      ...(fields.artists ? { artists: fields.artists } : {}),
      genre: fields.genre ?? "Pop",
      ...(fields.releaseDate !== undefined ? { releaseDate: fields.releaseDate } : {}),
      ...(fields.soundcloudUrl !== undefined ? { soundcloudUrl: fields.soundcloudUrl } : {}),
    },
    file ?? undefined,
  );
  return ctx.app.inject({
    method: "POST",
    url: "/api/songs",
    payload: body.payload,
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
  });
}

/** A signed-in member let in from the waitlist, with an optional role; returns its cookie and id. */
export async function member(ctx: TestContext, email: string, role = "user"): Promise<{ cookie: string; id: string }> {
  const cookie = await signUp(ctx, email);
  const row = await ctx.database.db
    .selectFrom("user")
    .select("id")
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  await ctx.database.db.updateTable("user").set({ off_waitlist: true, role }).where("id", "=", row.id).execute();
  return { cookie, id: row.id };
}

/** Mark songs verified directly (the voting issue adds the real path). */
export async function verify(ctx: TestContext, ...ids: string[]): Promise<void> {
  await ctx.database.db
    .updateTable("song")
    .set({ status: "verified", verified_at: new Date().toISOString() })
    .where("id", "in", ids)
    .execute();
}
