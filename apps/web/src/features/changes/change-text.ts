import type { ChangeEntry, ChangeKind } from "@unheard/shared";

// A changelog line's words, without React: where in the summary the song's title is, so it can be its link.

/** A summary split around the song's title: the text before it, the title, the text after it. */
export type SummaryParts = { before: string; title: string; after: string };

/**
 * The summary split around the song's title ("New: ", "Night Ferry", " (snippet, LQ)"), or null when the title is not
 * in it as a title (the song was renamed since, or the line names no song). The title counts where the summaries put
 * it: at the start or after ": " (after "→ " in a rename, the new name), and before the end, ":" or " (".
 */
export function summaryParts(
  summary: string,
  title: string | null | undefined,
  kind?: ChangeKind,
): SummaryParts | null {
  if (!title) return null;
  for (let at = summary.indexOf(title); at !== -1; at = summary.indexOf(title, at + 1)) {
    const before = summary.slice(0, at);
    const after = summary.slice(at + title.length);
    const opens = kind === "renamed" ? before.endsWith("→ ") : before === "" || before.endsWith(": ");
    const closes = after === "" || after.startsWith(":") || after.startsWith(" (");
    if (opens && closes) return { before, title, after };
  }
  return null;
}

/** A line as plain text, with its artist when the list is everyone's: "Mara Quill · New: Night Ferry". */
export function changeText(entry: Pick<ChangeEntry, "summary" | "artist">, withArtist: boolean): string {
  return withArtist ? `${entry.artist.name} · ${entry.summary}` : entry.summary;
}
