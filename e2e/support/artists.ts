import type { APIRequestContext, Page } from "@playwright/test";
import type { Song } from "@unheard/shared";
import { expect, unique } from "./fixtures";
import { uploadSong } from "./songs";

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
  const song = await uploadSong(api, { title, artists: [artist] });
  const artistId = song.artists[0]?.id;
  expect(artistId, "the upload credits the artist").toBeTruthy();
  return { song, artistId: artistId as string };
}

/** The follower count line on an artist page. */
export const followerCount = (page: Page) => page.getByTestId("artist-follower-count");
