import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type APIRequestContext, type Locator, type Page, request } from "@playwright/test";
import { resample } from "@unheard/fingerprint";
import { MESSAGES, type Song } from "@unheard/shared";
import { addNoise, noisyExcerpt, pcmWav, randomNotesTrack } from "./support/audio-fixtures";
import { canvasIsDrawn, fakeMicrophonePage, indexedSong, loginSuper, songPcm } from "./support/audio-tools";
import { baseURL } from "./support/env";
import { expect, test, toastWith } from "./support/fixtures";
import { convolve, roomImpulse } from "./support/room";

// Super-admin audio tools (issue 8): recognition from a (fake) microphone and from a file, and the quality report.
// The demo songs are 20 s synthesized tunes the server fingerprints in the background right after it starts.

const MIC_SONG = "Glass Horizon";
const FILE_SONG = "Static Bloom";
const ROOM_SONG = "Feedback Season";

let workDir: string;
let api: APIRequestContext;
let micSong: Song;
let fileSong: Song;
/** 8 s from the middle of MIC_SONG with white noise at 15 dB SNR, 48 kHz (what the fake microphone plays). */
let micClipPath: string;
/** 10 s of ROOM_SONG played across a room: convolved with a room response (RT60 0.6 s), noise at 10 dB SNR, 48 kHz. */
let roomClipPath: string;
/** 10 s of MIC_SONG sped up by 12% (tempo and pitch), noise at 15 dB SNR, 48 kHz. */
let spedClipPath: string;
/** 10 s of ROOM_SONG as a "slowed + reverb" edit: slowed to x0.85 (tempo and pitch), a room (RT60 0.5 s), noise. */
let slowedReverbClipPath: string;
/** Random notes that are in no song. */
let unknownClipPath: string;
/** 8 s from the middle of FILE_SONG with noise, as a WAV file to upload. */
let fileClip: Buffer;

test.beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "unheard-audio-tools-"));
  api = await request.newContext({ baseURL: baseURL() });
  await loginSuper(api);
  [micSong, fileSong] = await Promise.all([indexedSong(api, MIC_SONG), indexedSong(api, FILE_SONG)]);
  micClipPath = path.join(workDir, "mic-clip.wav");
  writeFileSync(micClipPath, pcmWav(noisyExcerpt(await songPcm(api, micSong), 8, 15, 48000)));
  const room = await songPcm(api, await indexedSong(api, ROOM_SONG));
  const mono = room.channels[0] as Float32Array;
  const from = Math.floor((mono.length - 10 * room.sampleRate) / 2);
  const heard = addNoise(convolve(mono.slice(from, from + 10 * room.sampleRate), roomImpulse(room.sampleRate)), 10, 5);
  roomClipPath = path.join(workDir, "room-clip.wav");
  writeFileSync(roomClipPath, pcmWav({ sampleRate: 48000, channels: [resample(heard, room.sampleRate, 48000)] }));
  // 8.5 s of the song played at 85% speed last 10 s; then the room over it, as the edits on short-video apps do.
  const source = mono.slice(from, from + Math.round(8.5 * room.sampleRate));
  const slowed = resample(source, room.sampleRate * 0.85, room.sampleRate);
  const edit = addNoise(convolve(slowed, roomImpulse(room.sampleRate, 0.5, 0)), 10, 7);
  slowedReverbClipPath = path.join(workDir, "slowed-reverb-clip.wav");
  writeFileSync(
    slowedReverbClipPath,
    pcmWav({ sampleRate: 48000, channels: [resample(edit, room.sampleRate, 48000)] }),
  );
  const mic = await songPcm(api, micSong);
  const micMono = mic.channels[0] as Float32Array;
  const at = Math.floor((micMono.length - 11.2 * mic.sampleRate) / 2);
  const sped = resample(micMono.slice(at, at + Math.round(11.2 * mic.sampleRate)), mic.sampleRate * 1.12, 48000);
  spedClipPath = path.join(workDir, "sped-clip.wav");
  writeFileSync(spedClipPath, pcmWav({ sampleRate: 48000, channels: [addNoise(sped, 15, 6)] }));
  unknownClipPath = path.join(workDir, "unknown.wav");
  writeFileSync(unknownClipPath, pcmWav({ sampleRate: 48000, channels: [randomNotesTrack(12, 48000, 99)] }));
  fileClip = pcmWav(noisyExcerpt(await songPcm(api, fileSong), 8, 15, 22050));
});

test.afterAll(async () => {
  await api?.dispose();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const phase = (page: Page) => page.getByTestId("recognition-phase");

test.describe("song recognition", () => {
  // biome-ignore lint/correctness/noEmptyPattern: this test drives its own browser (fake microphone).
  test("recognises a seeded song from a noisy microphone recording", async ({}, testInfo) => {
    test.setTimeout(60_000);
    const { browser, page, pageErrors } = await fakeMicrophonePage(micClipPath);
    try {
      await page.goto("/song-recognition");
      await expect(page.getByRole("heading", { name: "Song Recognition", level: 1 })).toBeVisible();
      await expect(phase(page)).toHaveText("Idle");
      await page.getByRole("button", { name: "Record" }).click();
      await expect(phase(page)).toHaveText(/Recording|Idle/);
      const match = page.getByTestId("recognition-match");
      await expect(match).toBeVisible({ timeout: 25_000 });
      await expect(match.getByRole("link", { name: MIC_SONG })).toBeVisible();
      await expect(match).toContainText(micSong.artists[0]?.name ?? "");
      // How sure, in words, with the evidence (issue 30): a clean clip of the song lines up far above chance.
      await expect(match.getByTestId("recognition-certainty")).toContainText(/^How sure(Sure|Likely)/);
      await expect(match.getByTestId("recognition-certainty")).toContainText(
        /[\d,]+ hashes line up, the next song \d+/,
      );
      // It stopped on its own once confident.
      await expect(phase(page)).toHaveText("Idle");
      await expect(page.getByRole("button", { name: "Record" })).toBeEnabled();
      await expect(page.getByTestId("fingerprint-status")).toHaveText(/[\d,]+ hashes extracted from [\d.]+ s of audio/);
      const matches = page.getByRole("region", { name: "Potential matches" });
      await expect(matches.getByRole("heading", { name: /^Found \d+ potential match(es)?$/ })).toBeVisible();
      await expect(matches.getByRole("row").filter({ hasText: MIC_SONG })).toContainText(/\d+%/);
      await expect(matches.getByRole("row").filter({ hasText: MIC_SONG })).toContainText(/\d:\d\d/);
      await expect(toastWith(page, /^Found \d+ potential match/)).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath("song-recognition.png"), fullPage: true });
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  /** Record `clipPath` through the fake microphone until the page shows `title` as the match, then `check` it. */
  async function micMatch(
    clipPath: string,
    title: string,
    screenshot: string,
    check: (match: Locator) => Promise<void> = async () => {},
  ) {
    const { browser, page, pageErrors } = await fakeMicrophonePage(clipPath);
    try {
      await page.goto("/song-recognition");
      await page.getByRole("button", { name: "Record" }).click();
      const match = page.getByTestId("recognition-match");
      await expect(match).toBeVisible({ timeout: 25_000 });
      await expect(match.getByRole("link", { name: title })).toBeVisible();
      await expect(phase(page)).toHaveText("Idle");
      await check(match);
      await page.screenshot({ path: test.info().outputPath(screenshot), fullPage: true });
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  }

  test("recognises a song played across a room: reverberation plus noise at the microphone", async () => {
    test.setTimeout(60_000);
    await micMatch(roomClipPath, ROOM_SONG, "song-recognition-room.png");
  });

  test("recognises a slowed + reverb edit through the microphone (issue 30)", async () => {
    test.setTimeout(60_000);
    await micMatch(slowedReverbClipPath, ROOM_SONG, "song-recognition-slowed-reverb.png", async (match) => {
      await expect(match.getByTestId("recognition-transform")).toContainText(/Slowed down 1[45]%/);
      await expect(match.getByTestId("recognition-certainty")).toContainText(/^How sure(Sure|Likely|Weak)/);
    });
  });

  test("recognises a sped-up edit and says how much faster it plays", async () => {
    test.setTimeout(60_000);
    await micMatch(spedClipPath, MIC_SONG, "song-recognition-sped-up.png", async (match) => {
      const transform = match.getByTestId("recognition-transform");
      await expect(transform).toContainText("Sped up 12%");
      await expect(transform).toContainText(/tempo ×1\.1[12] · pitch \+[12]\.\d st/);
    });
  });

  // biome-ignore lint/correctness/noEmptyPattern: this test drives its own browser (fake microphone).
  test("says 'No matches found' with guidance for audio that is not in the catalogue", async ({}, testInfo) => {
    test.setTimeout(75_000);
    const { browser, page, pageErrors } = await fakeMicrophonePage(unknownClipPath);
    try {
      await page.goto("/song-recognition");
      await page.getByRole("button", { name: "Record" }).click();
      await expect(phase(page)).toHaveText("Recording");
      await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
      // The meter moves and the server reports hashes while it listens.
      await expect.poll(() => page.locator("meter").evaluate((m) => (m as HTMLMeterElement).value)).toBeGreaterThan(0);
      await expect(page.getByTestId("fingerprint-status")).toHaveText(/hashes extracted/, { timeout: 10_000 });
      await expect(page.getByTestId("recognition-elapsed")).toContainText(/0:0[2-9]|0:1\d/, { timeout: 10_000 });
      await page.screenshot({ path: testInfo.outputPath("song-recognition-recording.png") });
      const results = page.getByRole("main");
      await expect(results.getByText(MESSAGES.noMatches, { exact: true })).toBeVisible({ timeout: 35_000 });
      await expect(results.getByText(MESSAGES.noMatchesGuidance)).toBeVisible();
      await expect(page.getByTestId("recognition-match")).toHaveCount(0);
      await expect(phase(page)).toHaveText("Idle");
      await page.screenshot({ path: testInfo.outputPath("song-recognition-no-match.png"), fullPage: true });
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  // biome-ignore lint/correctness/noEmptyPattern: this test drives its own browser (fake microphone).
  test("Stop ends the recording early and answers for what was recorded", async ({}) => {
    test.setTimeout(75_000);
    const { browser, page, pageErrors } = await fakeMicrophonePage(unknownClipPath);
    try {
      await page.goto("/song-recognition");
      await page.getByRole("button", { name: "Record" }).click();
      await expect(page.getByTestId("fingerprint-status")).toHaveText(/hashes extracted/, { timeout: 10_000 });
      await page.getByRole("button", { name: "Stop" }).click();
      await expect(page.getByRole("main").getByText(MESSAGES.noMatches, { exact: true })).toBeVisible({
        timeout: 10_000,
      });
      await expect(phase(page)).toHaveText("Idle");
      await expect(page.getByTestId("recognition-elapsed")).not.toContainText("0:15 /");
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  test("recognises an uploaded clip", async ({ page }) => {
    await loginSuper(page.request);
    await page.goto("/song-recognition");
    await page
      .getByLabel("Recognise a file")
      .setInputFiles({ name: "clip.wav", mimeType: "audio/wav", buffer: fileClip });
    const match = page.getByTestId("recognition-match");
    await expect(match).toBeVisible({ timeout: 20_000 });
    await expect(match.getByRole("link", { name: FILE_SONG })).toHaveAttribute("href", `/song/${fileSong.id}`);
    await expect(page.getByTestId("fingerprint-status")).toHaveText(/[\d,]+ hashes extracted from 8\.0 s of audio/);
  });

  test("a refused microphone says 'Failed to start recording'", async ({ page }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
    });
    await loginSuper(page.request);
    await page.goto("/song-recognition");
    await page.getByRole("button", { name: "Record" }).click();
    await expect(toastWith(page, MESSAGES.recordingFailed)).toBeVisible();
    await expect(phase(page)).toHaveText("Idle");
  });
});

test.describe("audio quality test", () => {
  test("reports on a seeded song with its spectrogram and both verdicts", async ({ page }, testInfo) => {
    await loginSuper(page.request);
    await page.goto("/audio-quality-test");
    await expect(page.getByRole("heading", { name: "Audio Quality Test", level: 1 })).toBeVisible();
    const picker = page.getByRole("combobox", { name: "Song", exact: true });
    await picker.fill("glass hor");
    await page.getByRole("option", { name: new RegExp(MIC_SONG) }).click();
    const report = page.getByTestId("quality-report");
    await expect(report).toBeVisible({ timeout: 20_000 });
    await expect(page).toHaveURL(new RegExp(`song=${micSong.id}`));
    await expect(report.getByRole("heading", { name: MIC_SONG })).toBeVisible();
    // Demo songs last 30-60 s (their length comes from the title): the report shows the song's own.
    const seconds = Math.floor(micSong.audio?.durationSec ?? 0);
    expect(seconds).toBeGreaterThanOrEqual(30);
    await expect(page.getByTestId("metric-duration")).toHaveText(
      `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`,
    );
    // The browser's own decode reports the rate the server measured on upload.
    const rate = micSong.audio?.sampleRate ?? 0;
    expect(rate).toBeGreaterThanOrEqual(16_000);
    await expect(report).toContainText(`${rate.toLocaleString("en-US")} Hz`);
    await expect(report).toContainText("1 (mono)");
    await expect(report).toContainText(/dBFS/);
    await expect(page.getByTestId("metric-fingerprints")).toHaveText(/^[\d,]+$/);
    await expect(page.getByTestId("metric-server-fingerprints")).toHaveText(/^[1-9][\d,]*$/);
    await expect(page.getByTestId("metric-cutoff")).toHaveText(/kHz/);
    // Over 30 s, well fingerprinted and not silent: the spec calls it valid, each check shown as passed.
    const spec = page.getByTestId("spec-verdict");
    await expect(spec).toContainText("Likely valid");
    await expect(spec.getByRole("listitem").filter({ hasText: "Duration over 30 s" })).toContainText("(passed)");
    await expect(page.getByTestId("quality-verdict")).toContainText(/Good|Usable|Poor/);
    await expect.poll(() => canvasIsDrawn(page, "spectrogram")).toBe(true);
    await page.screenshot({ path: testInfo.outputPath("audio-quality-test-song.png"), fullPage: true });

    // The address keeps the song: reloading shows its report again.
    await page.reload();
    await expect(page.getByTestId("quality-report").getByRole("heading", { name: MIC_SONG })).toBeVisible({
      timeout: 20_000,
    });

    // The linear scale redraws the picture.
    await page.getByText("Linear", { exact: true }).click();
    await expect.poll(() => canvasIsDrawn(page, "spectrogram")).toBe(true);
  });

  test("reports on an uploaded file", async ({ page }, testInfo) => {
    await loginSuper(page.request);
    await page.goto("/audio-quality-test");
    // Notes over a full-band noise floor, like a real recording (the notes alone end at a few kHz); the same
    // notes in both channels, with noise of their own.
    const notes = randomNotesTrack(35, 44100, 5);
    const channels = [1, 2].map((seed) => addNoise(notes, 20, seed));
    const wav = pcmWav({ sampleRate: 44100, channels });
    await page
      .getByLabel("Upload an audio file")
      .setInputFiles({ name: "take.wav", mimeType: "audio/wav", buffer: wav });
    const report = page.getByTestId("quality-report");
    await expect(report).toBeVisible({ timeout: 30_000 });
    await expect(report.getByRole("heading", { name: "take.wav" })).toBeVisible();
    await expect(page.getByTestId("metric-duration")).toHaveText("0:35");
    await expect(report).toContainText("44,100 Hz");
    await expect(report).toContainText("2 (stereo)");
    await expect(page.getByTestId("spec-verdict")).toContainText("Likely valid");
    await expect(page.getByTestId("quality-verdict")).toContainText(/Good|Usable|Poor/);
    await expect(page.getByTestId("metric-server-fingerprints")).toHaveCount(0);
    await expect.poll(() => canvasIsDrawn(page, "spectrogram")).toBe(true);
    await page.screenshot({ path: testInfo.outputPath("audio-quality-test-file.png"), fullPage: true });
  });

  test("explains failures: no audio, failed fetch, undecodable file", async ({ page }) => {
    await loginSuper(page.request);
    const base = { ...micSong };
    const silentSong: Song = { ...base, id: "no-audio-song", title: "Song Without Audio", audio: null };
    const brokenSong: Song = {
      ...base,
      id: "broken-audio-song",
      title: "Song With Broken Audio",
      audio: base.audio ? { ...base.audio, url: "/api/songs/broken-audio-song/audio" } : null,
    };
    await page.route("**/api/songs?feed=newest*", (route) =>
      route.fulfill({ json: { items: [silentSong, brokenSong], nextCursor: null } }),
    );
    await page.route("**/api/songs/pending*", (route) => route.fulfill({ json: { items: [], nextCursor: null } }));
    await page.goto("/audio-quality-test");
    const picker = page.getByRole("combobox", { name: "Song", exact: true });

    await picker.click();
    await page.getByRole("option", { name: /Song Without Audio/ }).click();
    await expect(toastWith(page, MESSAGES.noAudioUrl)).toBeVisible();
    await expect(page.getByRole("main").getByRole("alert").filter({ hasText: MESSAGES.noAudioUrl })).toBeVisible();

    await picker.fill("");
    await page.getByRole("option", { name: /Song With Broken Audio/ }).click();
    await expect(toastWith(page, MESSAGES.fetchAudioFailed)).toBeVisible();
    await expect(
      page.getByRole("main").getByRole("alert").filter({ hasText: MESSAGES.fetchAudioFailed }),
    ).toBeVisible();

    await page
      .getByLabel("Upload an audio file")
      .setInputFiles({ name: "notes.mp3", mimeType: "audio/mpeg", buffer: Buffer.from("not audio at all") });
    await expect(
      page.getByRole("main").getByRole("alert").filter({ hasText: MESSAGES.analysisErrorPrefix }),
    ).toBeVisible();
    await expect(toastWith(page, MESSAGES.analysisErrorPrefix)).toBeVisible();
  });
});
