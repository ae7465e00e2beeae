// A sync's plan (issue 37, decision 030): the fetched sheet's rows against what the link remembers of the last
// one. A row is known by its identity (title, era, version label): the same content hash is unchanged and costs no
// write; a changed one updates its song to the sheet; an unknown one is a rename when exactly one vanished row had
// the rest of its content (and the same title or era), else a new song (or a song already on Unheard, as an import
// matches it); a vanished row marks its song removed from the tracker. Nothing is ever deleted.
import { SYNC_LIMITS, SYNC_MESSAGES } from "@unheard/shared";
import { nameKey } from "../../lib/text.js";
import { describeRemoved, describeRenamed, describeReturned } from "../changelog/change-summary.js";
import {
  COLUMN_LABELS,
  createOf,
  filledChanges,
  type LinkRowWrite,
  matchSong,
  type Plan,
  updateOf,
} from "../imports/batch-plan.js";
import { type ExistingSong, LEAK_COLUMNS } from "../imports/imports.repo.js";
import type { PreparedRow } from "../imports/sheet-rows.js";

/** What a link remembers of a sheet row. */
export type KnownRow = { songId: string; contentHash: string | null; restHash: string | null; removed: boolean };

/** A sync's plan, and why it must wait for an admin (null: it may apply by itself). */
export type SyncPlan = Plan & { holdReason: string | null; unchanged: number };

const keyParts = (key: string) => key.split("\u001f");

/**
 * Plan a sync of `rows` against the link's `known` rows, the `songs` of the known rows that changed, came back or
 * left the sheet (an unchanged row needs none), and `existing` songs by title key.
 */
export function planSync(input: {
  rows: PreparedRow[];
  known: Map<string, KnownRow>;
  songs: Map<string, ExistingSong>;
  existing: Map<string, ExistingSong[]>;
  /** The link's first sync: it waits for approval whatever it does. */
  firstSync: boolean;
  now: string;
}): SyncPlan {
  const { rows, known, songs, existing, now } = input;
  const plan: SyncPlan = {
    creates: [],
    updates: [],
    skips: [],
    linkRows: { upsert: [], remove: [] },
    holdReason: null,
    unchanged: 0,
  };
  const link = plan.linkRows as { upsert: LinkRowWrite[]; remove: string[] };
  const remember = (row: PreparedRow, songId: string) =>
    link.upsert.push({ key: row.rowKey, songId, contentHash: row.contentHash, restHash: row.restHash, removed: false });
  const present = new Set<string>();
  const fresh: PreparedRow[] = [];
  for (const row of rows) {
    if (row.skip) {
      plan.skips.push({ row, songId: null, reason: row.skip });
      continue;
    }
    if (present.has(row.rowKey)) {
      plan.skips.push({ row, songId: null, reason: "Duplicate of an earlier row (same title, era and version)" });
      continue;
    }
    present.add(row.rowKey);
    const was = known.get(row.rowKey);
    // Unchanged: known by its hash alone (its song is not even read).
    if (was && !was.removed && was.contentHash === row.contentHash) {
      plan.unchanged++;
      plan.skips.push({ row, songId: was.songId, reason: "Unchanged" });
      continue;
    }
    const song = was && songs.get(was.songId);
    if (!was || !song) {
      fresh.push(row);
      continue;
    }
    // The sheet owns its rows' details: each column follows it, a cell emptied there is emptied here.
    const columns = LEAK_COLUMNS.filter((c) => row.leak[c] !== song[c]);
    const renamed = row.title !== song.title;
    if (columns.length === 0 && !renamed && !was.removed) {
      // Same values under a new hash (after an undo, or a change that reads the same): only the link moves on.
      plan.unchanged++;
      plan.skips.push({ row, songId: song.id, reason: "Unchanged" });
      remember(row, song.id);
      continue;
    }
    const set = renamed ? { title: row.title, title_key: row.titleKey } : {};
    const previous = renamed ? { title: song.title, title_key: nameKey(song.title) } : {};
    const update = updateOf(song, row, columns, {
      set: was.removed ? { ...set, tracker_removed_at: null } : set,
      previous: was.removed ? { ...previous, tracker_removed_at: song.tracker_removed_at } : previous,
      ...(was.removed ? { line: describeReturned(row.title) } : {}),
    });
    if (was.removed) update.reasons = ["Back on the tracker", ...(columns.length > 0 ? update.reasons : [])];
    plan.updates.push(update);
    remember(row, song.id);
  }

  // Rows the sheet no longer has: renamed (paired one to one by the rest of their content), else removed.
  const gone = [...known].filter(([key, r]) => !present.has(key) && !r.removed && songs.has(r.songId));
  const goneByRest = groupBy(gone, ([, r]) => r.restHash ?? "");
  const freshByRest = groupBy(fresh, (r) => r.restHash);
  const paired = new Set<string>();
  const adopted = new Set<PreparedRow>();
  for (const [rest, [only, ...others]] of goneByRest) {
    const candidates = freshByRest.get(rest) ?? [];
    if (!only || others.length > 0 || candidates.length !== 1 || !rest) continue;
    const [key, was] = only;
    const row = candidates[0] as PreparedRow;
    const [title, era, version] = keyParts(key);
    const [newTitle, newEra, newVersion] = keyParts(row.rowKey);
    if (version !== newVersion || (title !== newTitle && era !== newEra)) continue;
    const song = songs.get(was.songId) as ExistingSong;
    const columns = LEAK_COLUMNS.filter((c) => row.leak[c] !== song[c]);
    const renamed = row.title !== song.title;
    const update = updateOf(song, row, columns, {
      set: renamed ? { title: row.title, title_key: row.titleKey } : {},
      previous: renamed ? { title: song.title, title_key: nameKey(song.title) } : {},
      outcome: renamed ? "rename" : "update",
      ...(renamed ? { line: describeRenamed(song.title, row.title) } : {}),
    });
    update.reasons = renamed
      ? [`Renamed from “${song.title}”`]
      : [
          `Moved to ${columns.map((c) => COLUMN_LABELS[c]).includes("era") ? `era “${row.leak.era ?? ""}”` : "another row"}`,
        ];
    plan.updates.push(update);
    paired.add(key);
    adopted.add(row);
    link.remove.push(key);
    remember(row, song.id);
  }

  // New rows: a song already on Unheard (a member's upload, an earlier import) is taken over, else created.
  const linked = new Set([...known.values()].map((r) => r.songId));
  for (const row of fresh) {
    if (adopted.has(row)) continue;
    const song = matchSong(row, existing, linked);
    if (!song) {
      const create = createOf(row);
      plan.creates.push(create);
      remember(row, create.id);
      continue;
    }
    linked.add(song.id);
    remember(row, song.id);
    // Taken over as an import would: the cells the sheet fills in, nothing cleared.
    const columns = filledChanges(row, song);
    if (columns.length === 0)
      plan.skips.push({ row, songId: song.id, reason: "Already on Unheard with these details" });
    else plan.updates.push(updateOf(song, row, columns));
  }

  let removed = 0;
  for (const [key, was] of gone) {
    if (paired.has(key)) continue;
    const song = songs.get(was.songId) as ExistingSong;
    removed++;
    plan.updates.push({
      op: "update",
      songId: song.id,
      title: song.title,
      artistId: song.artistId,
      outcome: "remove",
      set: { tracker_removed_at: now },
      previous: { tracker_removed_at: song.tracker_removed_at },
      line: describeRemoved(song.title),
      row: null,
      reasons: ["Removed from the tracker (the song stays on Unheard)"],
    });
    link.upsert.push({ key, songId: song.id, contentHash: was.contentHash, restHash: was.restHash, removed: true });
  }

  const active = [...known.values()].filter((r) => !r.removed).length;
  if (input.firstSync) plan.holdReason = SYNC_MESSAGES.firstSync;
  else if (active > 0 && removed > active * SYNC_LIMITS.removalShareForApproval)
    plan.holdReason = SYNC_MESSAGES.largeRemoval(removed, active);
  return plan;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return out;
}

/** Whether a plan changes anything in the catalogue (a sync that does not writes no row). */
export function changesCatalogue(plan: Plan): boolean {
  return plan.creates.length > 0 || plan.updates.length > 0;
}
