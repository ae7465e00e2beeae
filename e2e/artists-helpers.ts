import type { APIRequestContext, Page } from "@playwright/test";
import type { Song } from "@unheard/shared";
import { expect } from "./fixtures";
import { unique } from "./moderation-helpers";
import { uploadTestSong } from "./songs-helpers";

/** A new artist name: songs credited to it create a placeholder artist profile. */
export function newArtistName(base: string): string {
  return `${base} ${unique()}`;
}

/** Upload a song credited to `artist` and return it with that artist's id (the first credit). */
export async function uploadByArtist(
  api: APIRequestContext,
  artist: string,
  title = `Track ${unique()}`,
): Promise<{ song: Song; artistId: string }> {
  const song = await uploadTestSong(api, { title, artists: [artist] });
  const artistId = song.artists[0]?.id;
  expect(artistId, "the upload credits the artist").toBeTruthy();
  return { song, artistId: artistId as string };
}

/** The notification bell that is on screen (the side menu's on desktop, the top bar's on phones). */
export const bell = (page: Page) => page.getByRole("button", { name: /^Notifications/ });

/** The bell's open list. */
export const notificationList = (page: Page) => page.getByRole("dialog", { name: "Notifications" });

/** The follower count line on an artist page. */
export const followerCount = (page: Page) => page.getByTestId("artist-follower-count");

/** The unread count the API reports for `api`'s user. */
export async function unreadOf(api: APIRequestContext): Promise<number> {
  const res = await api.get("/api/notifications?limit=1");
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { unread: number }).unread;
}
