import { randomBytes } from "node:crypto";
import { type APIRequestContext, expect, request } from "@playwright/test";
import type { Song } from "@unheard/shared";
import { baseURL, type DemoRole, storageStatePath } from "./env";
import { waitForMailLink } from "./mail";

/** A short unique suffix, so parallel tests never share songs or names. */
export function unique(): string {
  return `${Date.now().toString(36)}${randomBytes(2).toString("hex")}`;
}

/** A fresh e-mail address (lower case, as the server stores it). */
export function uniqueAddress(tag: string): string {
  return `e2e-${tag}-${unique()}@example.com`;
}

/** An API client signed in as a demo account (the cookies global setup saved). */
export function apiAs(role: DemoRole): Promise<APIRequestContext> {
  return request.newContext({ baseURL: baseURL(), storageState: storageStatePath(role) });
}

/**
 * An API client with no session. The empty storage state matters: inside a test, a new request
 * context would otherwise inherit the `storageState` the test file's `test.use` set.
 */
export function apiAsVisitor(): Promise<APIRequestContext> {
  return request.newContext({ baseURL: baseURL(), storageState: { cookies: [], origins: [] } });
}

/**
 * A mono 16-bit PCM WAV: a random melody of short tones, so every call is a real, decodable upload
 * that the server's audio fingerprinting does not take for a duplicate of another test's song.
 */
export function melodyWav(seconds = 3, sampleRate = 8000): Buffer {
  const frames = Math.floor(seconds * sampleRate);
  const data = Buffer.alloc(frames * 2);
  const noteFrames = Math.floor(sampleRate * 0.15);
  let frequency = 0;
  let phase = 0;
  for (let i = 0; i < frames; i++) {
    if (i % noteFrames === 0) frequency = 250 + Math.random() * 2200;
    phase += (2 * Math.PI * frequency) / sampleRate;
    const fade = Math.min(1, (i % noteFrames) / 80, (noteFrames - (i % noteFrames)) / 80);
    data.writeInt16LE(Math.round(Math.sin(phase) * fade * 0.4 * 32767), i * 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Upload a song through the API as `ctx`'s user (multipart: fields first, the audio file last). */
export async function uploadSong(
  ctx: APIRequestContext,
  song: { title: string; artists: string[]; genre?: string },
): Promise<Song> {
  const form = new FormData();
  form.append("title", song.title);
  for (const artist of song.artists) form.append("artists", artist);
  form.append("genre", song.genre ?? "Electronic");
  form.append("audio", new Blob([new Uint8Array(melodyWav())], { type: "audio/wav" }), "melody.wav");
  const res = await ctx.post("/api/songs", { multipart: form });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Song;
}

/** Report a song through the API as `ctx`'s user. */
export async function reportSong(ctx: APIRequestContext, songId: string, reason: string, details = ""): Promise<void> {
  const res = await ctx.post(`/api/songs/${songId}/reports`, { data: { reason, details } });
  expect(res.status(), await res.text()).toBe(201);
}

/** A registered, verified account signed in through the API; `approve` lets it past the waitlist. */
export type Member = { email: string; password: string; id: string; api: APIRequestContext };

/** Register, verify from the outbox and sign in a new account; optionally let it in (as the admin). */
export async function createMember(tag: string, opts: { approve?: boolean; email?: string } = {}): Promise<Member> {
  const email = opts.email ?? uniqueAddress(tag);
  const password = `pw-${unique()}`;
  const api = await apiAsVisitor();
  const reg = await api.post("/api/auth/register", { data: { email, password, confirmPassword: password } });
  expect(reg.status(), await reg.text()).toBe(201);
  const link = await waitForMailLink(email, "/api/auth/verify-email");
  const verified = await api.get(link, { headers: { accept: "application/json" } });
  expect(verified.status(), await verified.text()).toBe(200);
  const login = await api.post("/api/auth/login", { data: { email, password } });
  expect(login.status(), await login.text()).toBe(200);
  const { user } = (await login.json()) as { user: { id: string } };
  if (opts.approve) {
    const admin = await apiAs("admin");
    const res = await admin.post(`/api/admin/users/${user.id}/approve`);
    expect(res.status(), await res.text()).toBe(200);
    await admin.dispose();
  }
  return { email, password, id: user.id, api };
}
