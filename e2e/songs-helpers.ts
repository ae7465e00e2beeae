import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, type Browser, type BrowserContext, expect, type Page } from "@playwright/test";
import type { Song } from "@unheard/shared";
import { dataDir } from "./env";
import { test as base } from "./fixtures";
import type { Member } from "./moderation-helpers";

/**
 * A real, decodable 16-bit PCM mono WAV: a short melody of sine notes with soft edges, so the player has
 * something to play and seek through. The notes are random, so every upload is different audio: the
 * server refuses audio whose fingerprint matches a song it already has.
 */
export function melodyWav(seconds = 3, sampleRate = 22050): Buffer {
  const noteLength = Math.floor(sampleRate / 4);
  const notes = Array.from(
    { length: Math.ceil((seconds * sampleRate) / noteLength) },
    () => 220 * 2 ** (Math.random() * 3),
  );
  const frames = Math.floor(seconds * sampleRate);
  const data = Buffer.alloc(frames * 2);
  let phase = 0;
  for (let i = 0; i < frames; i++) {
    const note = notes[Math.floor(i / noteLength)] ?? 440;
    const t = i % noteLength;
    const envelope = Math.min(1, t / 300, (noteLength - t) / 300);
    phase += (2 * Math.PI * note) / sampleRate;
    data.writeInt16LE(Math.round(Math.sin(phase) * 0.35 * envelope * 32767), i * 2);
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

/** Upload a song through the API as `api`'s user, with audio no other song has (fields first, file last). */
export async function uploadTestSong(
  api: APIRequestContext,
  song: { title: string; artists: string[]; genre?: string },
): Promise<Song> {
  const form = new FormData();
  form.append("title", song.title);
  for (const artist of song.artists) form.append("artists", artist);
  form.append("genre", song.genre ?? "Electronic");
  form.append("audio", new Blob([new Uint8Array(melodyWav(2, 11025))], { type: "audio/wav" }), "take.wav");
  const res = await api.post("/api/songs", { multipart: form });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Song;
}

/** A browser context signed in as `member` (through the API, which sets the context's cookies). */
export async function memberContext(browser: Browser, member: Pick<Member, "email" | "password">) {
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const res = await context.request.post("/api/auth/login", {
    data: { email: member.email, password: member.password },
  });
  expect(res.status(), await res.text()).toBe(200);
  return context;
}

/** Open `url` and wait until the page listens to the live event stream (so no change is missed). */
export async function gotoLive(page: Page, url: string): Promise<void> {
  const stream = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events");
  await page.goto(url);
  await stream;
}

/** The card of a song in a grid or row, by its title. */
export const songCard = (scope: Page | ReturnType<Page["locator"]>, title: string) =>
  scope.getByRole("article", { name: title, exact: true });

/** The shared <audio> element's state. */
export async function audioState(page: Page) {
  return page.locator("audio[data-player]").evaluate((el: HTMLAudioElement) => ({
    src: el.currentSrc,
    currentTime: el.currentTime,
    paused: el.paused,
    error: el.error ? el.error.code : null,
  }));
}

/** Close contexts a test opened. */
export async function closeAll(...contexts: BrowserContext[]): Promise<void> {
  await Promise.all(contexts.map((c) => c.close()));
}

// ---------------------------------------------------------------------------------------------------
// 'Verify All Songs' verifies every pending song on the shared server. Tests that need their songs to
// stay pending hold a shared lock; the verify-all test takes the exclusive one (a readers-writer lock
// in files, because the suite runs in several worker processes).

const lockDir = () => path.join(dataDir(), "..", "pending-locks");
const WRITER = "verify-all.lock";

function lockFiles(): string[] {
  try {
    return readdirSync(lockDir());
  } catch {
    return [];
  }
}

/** Hold while a test relies on songs staying pending; returns the release function. */
export async function holdPendingSongs(): Promise<() => void> {
  mkdirSync(lockDir(), { recursive: true });
  const file = path.join(lockDir(), `reader-${randomUUID()}.lock`);
  for (;;) {
    await expect
      .poll(() => lockFiles().includes(WRITER), { message: "verify-all to finish", timeout: 60_000 })
      .toBe(false);
    writeFileSync(file, "");
    // The writer may have arrived between the check and the write: step back and wait again.
    if (!lockFiles().includes(WRITER)) break;
    rmSync(file, { force: true });
  }
  return () => rmSync(file, { force: true });
}

/** Take the exclusive lock: waits until no test relies on pending songs; returns the release function. */
export async function holdAllSongs(): Promise<() => void> {
  mkdirSync(lockDir(), { recursive: true });
  const file = path.join(lockDir(), WRITER);
  writeFileSync(file, "");
  await expect
    .poll(() => lockFiles().filter((f) => f !== WRITER).length, {
      message: "tests that need pending songs to finish",
      timeout: 60_000,
    })
    .toBe(0);
  return () => rmSync(file, { force: true });
}

/**
 * The suite's `test`, plus `test.use({ holdsPendingSongs: true })`: such tests hold the shared lock for
 * their whole run (released even when they fail), so 'Verify All Songs' never runs in their middle.
 */
export const test = base.extend<{ holdsPendingSongs: boolean; pendingLock: undefined }>({
  holdsPendingSongs: [false, { option: true }],
  pendingLock: [
    async ({ holdsPendingSongs }, use) => {
      if (!holdsPendingSongs) {
        await use(undefined);
        return;
      }
      const release = await holdPendingSongs();
      try {
        await use(undefined);
      } finally {
        release();
      }
    },
    { auto: true },
  ],
});
