// Who may see a song (spec §1: visitors browse verified songs, members vote on pending ones; issue 24). One rule
// for the song page, its audio, cover, history and versions, and the live events about it.
import type { Viewer } from "../auth/viewer.js";

/** What the rule needs of a song row. */
export type SongVisibility = {
  status: string;
  is_hidden: boolean | number;
  submitted_by: string | null;
};

/** Who is asking, as far as the rule cares. */
export type Audience = Pick<Viewer, "id" | "isAdmin" | "waitlisted"> | undefined;

/**
 * Hidden songs exist for admins only; pending songs for members (they vote on them; not visitors and not
 * accounts held on the waitlist), their uploader and admins; verified songs for everyone.
 */
export function maySee(song: SongVisibility, viewer: Audience): boolean {
  if (viewer?.isAdmin) return true;
  if (song.is_hidden) return false;
  if (song.status === "verified") return true;
  if (!viewer) return false;
  return !viewer.waitlisted || song.submitted_by === viewer.id;
}

/** Whether visitors may see the song: what may be cached publicly (shared caches, the public answer cache). */
export function isPublic(song: Pick<SongVisibility, "status" | "is_hidden">): boolean {
  return song.status === "verified" && !song.is_hidden;
}

/**
 * Cache-Control of a song's audio and cover. A public song's versioned URL never changes content: cached for
 * good. A pending song's is for the signed-in member's own browser, briefly; a hidden song's is not kept at all.
 * Neither may sit in a shared cache, which would serve it to anyone for a year.
 */
export function mediaCacheControl(song: Pick<SongVisibility, "status" | "is_hidden">, versioned: boolean): string {
  if (song.is_hidden) return "private, no-store";
  if (song.status !== "verified") return "private, max-age=300";
  return versioned ? "public, max-age=31536000, immutable" : "public, max-age=300";
}
