import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import type { Song, SongPage } from "@unheard/shared";

/** Every cached song list (feeds, search, recommendations, favourites, pending) lives under this key. */
export const SONG_LISTS_KEY = ["songs"] as const;

/** Query key of one song's detail; its history sits under it as [..., "history"]. */
export const songDetailKey = (id: string) => ["song", id] as const;

/** The shapes a song list is cached in: an infinite query of pages, or a single `{ items }` answer. */
type ListData = InfiniteData<SongPage, unknown> | { items: Song[] };

/** The fields of a song that `song` events and actions change in place. */
export type SongPatch = Partial<
  Pick<
    Song,
    | "upvotes"
    | "downvotes"
    | "net"
    | "status"
    | "verifiedAt"
    | "favoriteCount"
    | "playCount"
    | "isFavorite"
    | "myVote"
    | "myVoteNote"
    | "verifiableAt"
    | "isHidden"
    | "version"
  >
>;

function applyPatch(song: Song, patch: SongPatch): Song {
  let changed = false;
  for (const [k, v] of Object.entries(patch)) {
    if (v !== undefined && song[k as keyof Song] !== v) changed = true;
  }
  return changed ? { ...song, ...stripUndefined(patch) } : song;
}

function stripUndefined(patch: SongPatch): SongPatch {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as SongPatch;
}

/** Map the songs of a cached list; returns the same object when nothing changed, so nothing re-renders. */
function mapList(data: ListData | undefined, fn: (song: Song) => Song | null): ListData | undefined {
  if (!data) return data;
  const mapItems = (items: Song[]): Song[] => {
    let changed = false;
    const out: Song[] = [];
    for (const s of items) {
      const next = fn(s);
      if (next !== s) changed = true;
      if (next) out.push(next);
    }
    return changed ? out : items;
  };
  if ("pages" in data) {
    let changed = false;
    const pages = data.pages.map((p) => {
      const items = mapItems(p.items);
      if (items === p.items) return p;
      changed = true;
      return { ...p, items };
    });
    return changed ? { ...data, pages } : data;
  }
  if (Array.isArray(data.items)) {
    const items = mapItems(data.items);
    return items === data.items ? data : { ...data, items };
  }
  return data;
}

/** Every cached copy of a song (detail and lists), for reading its last known state. */
export function cachedCopies(queryClient: QueryClient, id: string): Song[] {
  const out: Song[] = [];
  const detail = queryClient.getQueryData<Song>(songDetailKey(id));
  if (detail) out.push(detail);
  for (const [, data] of queryClient.getQueriesData<ListData>({ queryKey: SONG_LISTS_KEY })) {
    if (!data) continue;
    const items = "pages" in data ? data.pages.flatMap((p) => p.items) : (data.items ?? []);
    for (const s of items) if (s.id === id) out.push(s);
  }
  return out;
}

/** The song as any cache last saw it (used to start a detail page from a card without a spinner). */
export function cachedSong(queryClient: QueryClient, id: string): Song | undefined {
  return cachedCopies(queryClient, id)[0];
}

// The last status this tab saw for each song, so a change is noticed even after the song left every list
// (a song verified and then returned to pending must come back to the pending grid).
const knownStatus = new Map<string, Song["status"]>();
const KNOWN_STATUS_MAX = 5000;

function rememberStatus(id: string, status: Song["status"] | undefined): void {
  if (!status) return;
  if (knownStatus.size >= KNOWN_STATUS_MAX) knownStatus.clear();
  knownStatus.set(id, status);
}

/** Change a song in place everywhere it is cached: its detail page, every feed, grid and row. */
export function patchSong(queryClient: QueryClient, id: string, patch: SongPatch): void {
  rememberStatus(id, patch.status);
  queryClient.setQueryData<Song>(songDetailKey(id), (song) => (song ? applyPatch(song, patch) : song));
  queryClient.setQueriesData<ListData>({ queryKey: SONG_LISTS_KEY }, (data) =>
    mapList(data, (s) => (s.id === id ? applyPatch(s, patch) : s)),
  );
}

/** Drop a song from every cached list at once (deleted, or hidden from this viewer). */
export function removeSongFromLists(queryClient: QueryClient, id: string): void {
  queryClient.setQueriesData<ListData>({ queryKey: SONG_LISTS_KEY }, (data) =>
    mapList(data, (s) => (s.id === id ? null : s)),
  );
}

/**
 * Reload the lists after a song moved between them (pending <-> verified, deleted, hidden): a verified
 * song leaves the pending grid and joins the feeds. Only lists on screen refetch; the rest refetch when shown.
 */
export function refreshSongLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: SONG_LISTS_KEY });
}

/** True when a cached answer (one song, or a list of them) holds a song that has no audio yet. */
export function holdsSongWithoutAudio(data: unknown): boolean {
  if (!data || typeof data !== "object") return false;
  const d = data as { id?: unknown; audio?: unknown; pages?: unknown; items?: unknown };
  if (typeof d.id === "string" && "audio" in d) return d.audio === null;
  const lists = Array.isArray(d.pages) ? d.pages.map((p) => (p as { items?: unknown }).items) : [d.items];
  return lists.some((items) => Array.isArray(items) && items.some((s) => (s as Song | null)?.audio === null));
}

/**
 * Reload the cached songs and lists that show a song without audio (demo audio rendered since, issue 25): only
 * they can have changed, and no event says so. Those on screen refetch now, the rest when shown.
 */
export function refreshSongsWithoutAudio(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({
    predicate: (q) => isSongQuery(q.queryKey) && holdsSongWithoutAudio(q.state.data),
  });
}

/** The `song` event of /api/events: the song's id plus the fields that changed. */
export type SongEvent = SongPatch & {
  id: string;
  deleted?: boolean;
  edited?: boolean;
  created?: boolean;
  statusChanged?: boolean;
};

const PATCHABLE = [
  "upvotes",
  "downvotes",
  "net",
  "status",
  "verifiedAt",
  "favoriteCount",
  "playCount",
  "isHidden",
  "version",
] as const;

function parseSongEvent(raw: unknown): SongEvent | undefined {
  if (!raw || typeof raw !== "object") return undefined;
  const e = raw as Record<string, unknown>;
  if (typeof e.id !== "string") return undefined;
  const event: SongEvent = { id: e.id };
  for (const key of PATCHABLE) if (key in e) (event as Record<string, unknown>)[key] = e[key];
  if (e.deleted === true) event.deleted = true;
  if (e.edited === true) event.edited = true;
  if (e.created === true) event.created = true;
  if (e.statusChanged === true) event.statusChanged = true;
  return event;
}

/**
 * Apply a `song` event from the server to the cache. Counts are patched in place (every open view
 * re-renders at once); a change of status, visibility or content also reloads what it affects.
 */
export function applySongEvent(queryClient: QueryClient, raw: unknown): void {
  const event = parseSongEvent(raw);
  if (!event) return;
  const { id, deleted, edited, created, statusChanged: movedLists, ...patch } = event;
  if (deleted) {
    removeSongFromLists(queryClient, id);
    // An open song page refetches, gets 'Song not found' and leaves.
    void queryClient.invalidateQueries({ queryKey: songDetailKey(id) });
    return;
  }
  // A new upload belongs on the pending grids that are open.
  if (created) {
    void refreshSongLists(queryClient);
    return;
  }
  const before = cachedCopies(queryClient, id);
  const previous = before.map((s) => s.status);
  const remembered = knownStatus.get(id);
  if (remembered) previous.push(remembered);
  // A song this tab never saw matters only once verified: it now belongs on the home feeds.
  const statusChanged =
    movedLists === true ||
    (patch.status !== undefined &&
      (previous.length === 0 ? patch.status === "verified" : previous.some((s) => s !== patch.status)));
  const hiddenChanged = patch.isHidden !== undefined && before.some((s) => s.isHidden !== patch.isHidden);
  const contentChanged = edited || (patch.version !== undefined && before.some((s) => s.version !== patch.version));
  patchSong(queryClient, id, patch);
  if (hiddenChanged || contentChanged) void queryClient.invalidateQueries({ queryKey: songDetailKey(id) });
  if (statusChanged || hiddenChanged || contentChanged) void refreshSongLists(queryClient);
}

/** True for the cached answers that hold songs (lists and song pages). */
export function isSongQuery(key: readonly unknown[]): boolean {
  return key[0] === SONG_LISTS_KEY[0] || key[0] === "song";
}
