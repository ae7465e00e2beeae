import { z } from "zod";

/**
 * An artist's changelog (issue 37), the trackers' own "Updates" tab: new songs, upgrades (availability, quality),
 * other changes, songs removed from (or back on) the tracker and renames.
 */
export const CHANGE_KINDS = ["new", "upgraded", "changed", "removed", "returned", "renamed"] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];
/** Where a change came from. */
export const CHANGE_SOURCES = ["sync", "import", "edit", "upload"] as const;
export type ChangeSource = (typeof CHANGE_SOURCES)[number];
export const CHANGE_SOURCE_LABELS: Readonly<Record<ChangeSource, string>> = {
  sync: "Tracker sync",
  import: "Import",
  edit: "Edit",
  upload: "Upload",
};

/** One line of a changelog: "New: Night Ferry (snippet, LQ)", "Undertow: snippet → full, CD quality". */
export const changeEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(CHANGE_KINDS),
  summary: z.string(),
  source: z.enum(CHANGE_SOURCES),
  createdAt: z.string(),
  song: z.object({ id: z.string(), title: z.string() }).nullable(),
  artist: z.object({ id: z.string(), name: z.string() }),
});
export type ChangeEntry = z.infer<typeof changeEntrySchema>;
export const changePageSchema = z.object({ items: z.array(changeEntrySchema), nextCursor: z.string().nullable() });
export type ChangePage = z.infer<typeof changePageSchema>;
