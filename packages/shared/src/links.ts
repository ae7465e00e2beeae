// Links people give: which are safe to show, which SoundCloud links may be embedded and how (DESIGN §5). No zod:
// pages import these.

const SOUNDCLOUD_HOSTS = new Set(["soundcloud.com", "www.soundcloud.com", "m.soundcloud.com", "on.soundcloud.com"]);

/** True for the SoundCloud links DESIGN §5 allows to be embedded. */
export function isAllowedSoundcloudUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && SOUNDCLOUD_HOSTS.has(url.hostname) && url.pathname.length > 1;
  } catch {
    return false;
  }
}

/** The SoundCloud widget URL for an allowed link. */
export function soundcloudEmbedUrl(value: string): string {
  return `https://w.soundcloud.com/player/?url=${encodeURIComponent(value)}&color=%238b5cf6&auto_play=false&visual=false`;
}

/** True when a stored link may be rendered as a link. */
export function isSafeLink(v: string | null | undefined): v is string {
  if (!v) return false;
  try {
    const u = new URL(v);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}
