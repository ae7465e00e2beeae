import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type APIRequestContext, type Page, request } from "@playwright/test";
import { resample } from "@unheard/fingerprint";
import { MESSAGES, type Song } from "@unheard/shared";
import { addNoise, noisyExcerpt, pcmWav, randomNotesTrack } from "./support/audio-fixtures";
import { fakeMicrophonePage, indexedSong, loginSuper, songPcm } from "./support/audio-tools";
import { baseURL } from "./support/env";
import { as, expect, test } from "./support/fixtures";
import { closeAll, createMember, memberPage } from "./support/members";

// Issue 39: Identify for every member. A member records a sped-up edit of a demo song through Chromium's fake
// microphone and is told the song, that it is sped up, where in the song the clip starts and its tracker entry;
// unknown music is "Not on Unheard yet" with the upload link; a clip file works too, for waitlisted accounts as well.

const MIC_SONG = "Glass Horizon";
const FILE_SONG = "Static Bloom";

let workDir: string;
let api: APIRequestContext;
let micSong: Song;
/** 10 s of MIC_SONG sped up by 12% (tempo and pitch), noise at 15 dB SNR, 48 kHz: what the fake microphone plays. */
let spedClipPath: string;
/** Random notes that are in no song. */
let unknownClipPath: string;
/** 8 s from the middle of FILE_SONG with noise, as a WAV file to upload. */
let fileClip: Buffer;
let unknownClip: Buffer;

test.beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "unheard-identify-"));
  api = await request.newContext({ baseURL: baseURL() });
  // The super admin waits until the demo songs are fingerprinted (indexing runs in the background at start).
  await loginSuper(api);
  let fileSong: Song;
  [micSong, fileSong] = await Promise.all([indexedSong(api, MIC_SONG), indexedSong(api, FILE_SONG)]);
  const mic = await songPcm(api, micSong);
  const mono = mic.channels[0] as Float32Array;
  const at = Math.floor((mono.length - 11.2 * mic.sampleRate) / 2);
  const sped = resample(mono.slice(at, at + Math.round(11.2 * mic.sampleRate)), mic.sampleRate * 1.12, 48000);
  spedClipPath = path.join(workDir, "sped-clip.wav");
  writeFileSync(spedClipPath, pcmWav({ sampleRate: 48000, channels: [addNoise(sped, 15, 6)] }));
  unknownClip = pcmWav({ sampleRate: 48000, channels: [randomNotesTrack(12, 48000, 99)] });
  unknownClipPath = path.join(workDir, "unknown.wav");
  writeFileSync(unknownClipPath, unknownClip);
  fileClip = pcmWav(noisyExcerpt(await songPcm(api, fileSong), 8, 15, 22050));
});

test.afterAll(async () => {
  await api?.dispose();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** The page's width against its window's: more would scroll sideways. */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.describe("identify", () => {
  for (const width of [1440, 375]) {
    // biome-ignore lint/correctness/noEmptyPattern: this test drives its own browser (fake microphone).
    test(`names a sped-up edit heard through the microphone, and says it is sped up (${width} px)`, async ({}, testInfo) => {
      test.setTimeout(90_000);
      const member = await createMember(`identify-${width}`, { approve: true });
      const { browser, page, pageErrors } = await fakeMicrophonePage(spedClipPath, { account: member, width });
      try {
        await page.goto("/identify");
        await expect(page.getByRole("heading", { name: "Identify", level: 1 })).toBeVisible();
        await expect(page.getByText(MESSAGES.identifyClipsNotKept)).toBeVisible();
        const button = page.getByRole("button", { name: "Identify a song" });
        // A thumb-sized target: far above WCAG 2.5.8's 24 px.
        const box = await button.boundingBox();
        expect(box?.width ?? 0).toBeGreaterThanOrEqual(150);
        await button.click();
        await expect(page.getByTestId("identify-status")).toHaveText(/Listening…/);
        await expect(page.getByRole("button", { name: "Stop listening" })).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`identify-listening-${width}.png`) });
        const match = page.getByTestId("identify-match");
        await expect(match).toBeVisible({ timeout: 30_000 });
        await expect(page.getByTestId("identify-answer")).toBeFocused();
        await expect(match.getByRole("link", { name: MIC_SONG })).toHaveAttribute("href", `/song/${micSong.id}`);
        await expect(match).toContainText(micSong.artists[0]?.name ?? "");
        await expect(match.getByTestId("identify-transform")).toContainText(/Sped up 1[12]%/);
        await expect(match.getByTestId("identify-position")).toContainText(/^In the songFrom \d+:\d\d$/);
        await expect(match.getByTestId("identify-certainty")).toContainText(/^How sure(Sure|Likely|Weak)/);
        const tracker = match.getByRole("region", { name: "On the tracker" });
        await expect(tracker).toContainText(micSong.era ? `Era: ${micSong.era}` : "Era: none named");
        // Listening stopped by itself once the song was found.
        await expect(page.getByRole("button", { name: "Identify a song" })).toBeEnabled();
        await expect(page.getByTestId("identify-status")).toHaveText("Tap to identify");
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await page.screenshot({ path: testInfo.outputPath(`identify-answer-${width}.png`), fullPage: true });
        expect(pageErrors).toEqual([]);
      } finally {
        await browser.close();
      }
    });
  }

  // biome-ignore lint/correctness/noEmptyPattern: this test drives its own browser (fake microphone).
  test("says 'Not on Unheard yet' for unknown music, with the way to upload it", async ({}, testInfo) => {
    test.setTimeout(90_000);
    const member = await createMember("identify-unknown", { approve: true });
    const { browser, page, pageErrors } = await fakeMicrophonePage(unknownClipPath, { account: member, width: 375 });
    try {
      await page.goto("/identify");
      await page.getByRole("button", { name: "Identify a song" }).click();
      // The page keeps listening past an answer without the song, then answers for the whole recording.
      await expect(page.getByTestId("identify-status")).toHaveText(/Not found yet, still listening…/, {
        timeout: 15_000,
      });
      const answer = page.getByTestId("identify-answer");
      await expect(answer).toHaveText(MESSAGES.identifyNotOnUnheard, { timeout: 30_000 });
      await expect(page.getByText(MESSAGES.identifyNotOnUnheardGuidance)).toBeVisible();
      await expect(page.getByRole("link", { name: "Upload it" })).toHaveAttribute("href", "/upload");
      await expect(page.getByTestId("identify-match")).toHaveCount(0);
      expect(await overflow(page)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath("identify-not-found-375.png"), fullPage: true });
      await page.getByRole("button", { name: "Identify another" }).click();
      await expect(answer).toHaveCount(0);
      expect(pageErrors).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  test("names the song of an uploaded clip, and lets a waitlisted account identify too", async ({ browser }) => {
    test.setTimeout(60_000);
    const [member, held] = await Promise.all([
      createMember("identify-file", { approve: true }),
      createMember("identify-held"),
    ]);
    const signedIn = await memberPage(browser, member);
    const waiting = await memberPage(browser, held);
    try {
      const { page } = signedIn;
      await page.goto("/identify");
      await page
        .getByLabel("Or upload a clip")
        .setInputFiles({ name: "clip.wav", mimeType: "audio/wav", buffer: fileClip });
      const match = page.getByTestId("identify-match");
      await expect(match).toBeVisible({ timeout: 20_000 });
      await expect(match.getByRole("link", { name: FILE_SONG })).toBeVisible();
      await expect(match.getByTestId("identify-transform")).toHaveText("HeardAs released");
      // Wrong song? The member reports it with the clip attached: the one way a clip is kept.
      await page.getByRole("button", { name: "Wrong song? Report it with your clip" }).click();
      const dialog = page.getByRole("dialog", { name: "Report with your clip" });
      await expect(dialog).toContainText(MESSAGES.identifyClipAttachNote);
      await dialog.getByRole("radio", { name: "Wrong title" }).check();
      await dialog.getByLabel("Details").fill("Identify named this; the clip is another song");
      await dialog.getByRole("button", { name: "Send report and clip" }).click();
      await expect(page.getByText(MESSAGES.identifyReportSent).first()).toBeVisible();
      await expect(page.getByRole("button", { name: "Wrong song? Report it with your clip" })).toHaveCount(0);
      // An admin handling reports hears the clip in the queue.
      const admin = await browser.newContext({ storageState: as("admin") });
      try {
        const adminPage = await admin.newPage();
        await adminPage.goto("/reports");
        const row = adminPage.getByRole("article").filter({ hasText: "the clip is another song" });
        const audio = row.getByTestId("report-clip");
        await expect(audio).toBeVisible();
        const src = await audio.getAttribute("src");
        const heard = await adminPage.request.get(src ?? "");
        expect(heard.status()).toBe(200);
        expect(heard.headers()["content-type"]).toBe("audio/wav");
        expect((await heard.body()).equals(fileClip)).toBe(true);
      } finally {
        await admin.close();
      }
      // Waitlisted (decision 032): the page is theirs too; unknown music has no upload link for them yet.
      await waiting.page.goto("/identify");
      await expect(waiting.page).toHaveURL(/\/identify$/);
      await waiting.page
        .getByLabel("Or upload a clip")
        .setInputFiles({ name: "notes.wav", mimeType: "audio/wav", buffer: unknownClip });
      await expect(waiting.page.getByTestId("identify-answer")).toHaveText(MESSAGES.identifyNotOnUnheard, {
        timeout: 20_000,
      });
      await expect(
        waiting.page.getByText("Once an admin lets you in from the waitlist, you can upload it."),
      ).toBeVisible();
      await expect(waiting.page.getByRole("link", { name: "Upload it" })).toHaveCount(0);
    } finally {
      await closeAll(signedIn.context, waiting.context);
    }
  });

  test("asks a visitor to sign in", async ({ page }) => {
    await page.goto("/identify");
    await expect(page.getByRole("heading", { name: MESSAGES.identifySignIn })).toBeVisible();
    await expect(page.getByRole("link", { name: "Log In" })).toHaveAttribute("href", /\/login\?next=%2Fidentify/);
  });
});
