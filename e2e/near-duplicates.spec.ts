import { request } from "@playwright/test";
import { resample } from "@unheard/fingerprint";
import { pcmWav } from "./support/audio-fixtures";
import { indexedSong, loginSuper, songPcm } from "./support/audio-tools";
import { baseURL } from "./support/env";
import { expect, test, toastWith } from "./support/fixtures";
import { closeAll, createMember, memberPage } from "./support/members";

// Issue 17: the duplicate-audio check on upload also catches a sped-up copy of a song already on Unheard and names
// the song and the transform on the upload page.

const SONG = "Glass Horizon";

test("the upload page names a sped-up copy of a song already on Unheard", async ({ browser }, testInfo) => {
  test.setTimeout(90_000);
  const api = await request.newContext({ baseURL: baseURL() });
  await loginSuper(api);
  const song = await indexedSong(api, SONG);
  const pcm = await songPcm(api, song);
  await api.dispose();
  // A "sped up" edit: 10% faster, so 10% higher, as resampling makes it.
  const sped = resample(pcm.channels[0] as Float32Array, pcm.sampleRate * 1.1, pcm.sampleRate);
  const member = await createMember("sped", { approve: true });
  const { context, page } = await memberPage(browser, member);
  await page.goto("/upload");
  await page.getByLabel("Title").fill("Glass Horizon (sped up)");
  await page.getByLabel("Primary artist").fill("Reuploader");
  await page.getByLabel("Genre").selectOption("Electronic");
  await page
    .getByLabel("Audio file")
    .setInputFiles({ name: "glass-sped-up.wav", mimeType: "audio/wav", buffer: pcmWav({ ...pcm, channels: [sped] }) });
  await page.getByRole("button", { name: "Upload Song" }).click();
  const message = `This audio matches "${SONG}" by ${song.artists.map((a) => a.name).join(", ")}, which is already on Unheard (sped up 10%).`;
  const notice = page.getByRole("alert").filter({ hasText: message });
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(toastWith(page, message)).toBeVisible();
  await expect(notice.getByRole("button", { name: "Upload anyway" })).toBeVisible();
  await expect(page).toHaveURL(/\/upload$/);
  await page.screenshot({ path: testInfo.outputPath("upload-sped-up-duplicate.png"), fullPage: true });
  await closeAll(context);
});
