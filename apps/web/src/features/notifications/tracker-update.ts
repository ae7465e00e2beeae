// A tracker update notification (issue 37) in words, without React: the notification bell shows it.

/** Song lines a tracker update shows under its own line; the rest are counted. */
export const TRACKER_ITEMS_SHOWN = 3;

const str = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * What a `tracker_update` says: "Mara Quill's tracker" and "2 new songs, 1 upgrade", a few of its songs' lines
 * ("New: Night Ferry (snippet)", "and 4 more"), and the artist page it leads to ("" when the payload names none).
 */
export function trackerUpdateText(payload: Record<string, unknown>): {
  artist: string;
  summary: string;
  lines: string[];
  to: string;
  text: string;
} {
  const artist = str(payload.artistName) ? `${str(payload.artistName)}'s tracker` : "A followed artist's tracker";
  const summary = str(payload.summary) || "updated";
  const all = Array.isArray(payload.items)
    ? payload.items
        .map((item) => (item && typeof item === "object" ? str((item as { summary?: unknown }).summary) : ""))
        .filter(Boolean)
    : [];
  const shown = all.slice(0, TRACKER_ITEMS_SHOWN);
  const counted = typeof payload.more === "number" && payload.more > 0 ? Math.floor(payload.more) : 0;
  const more = all.length - shown.length + counted;
  const lines = more > 0 ? [...shown, `and ${more} more`] : shown;
  const artistId = str(payload.artistId);
  const head = `${artist}: ${summary}`;
  return {
    artist,
    summary,
    lines,
    to: artistId ? `/artists/${encodeURIComponent(artistId)}` : "",
    text: lines.length > 0 ? `${head}. ${lines.join("; ")}` : head,
  };
}
