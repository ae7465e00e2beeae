import type { APIRequestContext, Locator, Page } from "@playwright/test";
import type { Song } from "@unheard/shared";
import { uniqueSongWav } from "./audio-fixtures";
import { expect } from "./fixtures";

/** Upload a song through the API as `api`'s user, with audio of its own (fields first, the file last). */
export async function uploadSong(
  api: APIRequestContext,
  song: { title: string; artists: string[]; genre?: string },
): Promise<Song> {
  const form = new FormData();
  form.append("title", song.title);
  for (const artist of song.artists) form.append("artists", artist);
  form.append("genre", song.genre ?? "Electronic");
  // Hundreds of 2 s random tunes across the suite: a chance fingerprint match between two of them must not fail a
  // spec that is not about duplicates (the duplicate check has its own API and browser tests).
  form.append("allowDuplicateAudio", "true");
  form.append("audio", new Blob([new Uint8Array(uniqueSongWav(2, 11025))], { type: "audio/wav" }), "take.wav");
  const res = await api.post("/api/songs", { multipart: form });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Song;
}

/** Report a song through the API as `api`'s user. */
export async function reportSong(api: APIRequestContext, songId: string, reason: string, details = ""): Promise<void> {
  const res = await api.post(`/api/songs/${songId}/reports`, { data: { reason, details } });
  expect(res.status(), await res.text()).toBe(201);
}

/**
 * In a song form's artist list (upload, suggest an edit): add two fields, `${field} ${first}` and the next one, fill
 * them with `names`, remove the second again with its Remove button and check that it is gone.
 */
export async function addArtistsRemoveSecond(
  form: Page | Locator,
  field: string,
  first: number,
  names: [string, string],
): Promise<void> {
  const [kept, removed] = [`${field} ${first}`, `${field} ${first + 1}`];
  // By label: the upload and edit forms' artist fields are comboboxes that suggest artists (issue 38).
  const labelled = (name: string) => form.getByLabel(name, { exact: true });
  await form.getByRole("button", { name: "Add artist" }).click();
  await labelled(kept).fill(names[0]);
  await form.getByRole("button", { name: "Add artist" }).click();
  await labelled(removed).fill(names[1]);
  await form.getByRole("button", { name: `Remove ${removed.toLowerCase()}` }).click();
  await expect(labelled(removed)).toHaveCount(0);
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
