import {
  infiniteQueryOptions,
  keepPreviousData,
  type QueryKey,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import {
  AVAILABILITIES,
  type Availability,
  type EditResult,
  type EditSongInput,
  type FavoriteState,
  GENRES,
  type Genre,
  MESSAGES,
  QUALITIES,
  type Quality,
  RELEASE_FILTERS,
  type Song,
  type SongHistoryEntry,
  type SongPage,
  type SoundcloudTrack,
  type UploadSongInput,
  type VersionLinkInput,
} from "@unheard/shared";
import {
  ApiError,
  api,
  apiFetch,
  errorFromBody,
  networkError,
  type OkResponse,
  offlineError,
  parseBody,
} from "../../lib/api/api";
import {
  cachedSong,
  patchSong,
  refreshSongLists,
  removeSongFromLists,
  SONG_LISTS_KEY,
  songDetailKey,
} from "../../lib/api/live";
import { meKey } from "../accounts/me";
import { changesKeys } from "../changes/changes";

/** Release filter values of the home page (spec §5 plus 'all'). */
export type ReleaseFilter = "all" | (typeof RELEASE_FILTERS)[number];

/** The home filters; they live in the page URL (?genre=&release=&next7=1&availability=&quality=). */
export type FeedFilters = {
  genre: "All" | Genre;
  release: ReleaseFilter;
  next7: boolean;
  availability: "all" | Availability;
  quality: "all" | Quality;
};

/** Filters when the URL sets none. */
export const DEFAULT_FILTERS: FeedFilters = {
  genre: "All",
  release: "all",
  next7: false,
  availability: "all",
  quality: "all",
};

/** Read the filters from a URL's search params, ignoring values the API would refuse. */
export function filtersFromParams(params: URLSearchParams): FeedFilters {
  const genre = params.get("genre");
  const release = params.get("release");
  const next7 = params.get("next7");
  return {
    genre: (GENRES as readonly string[]).includes(genre ?? "") ? (genre as Genre) : "All",
    release: (RELEASE_FILTERS as readonly string[]).includes(release ?? "") ? (release as ReleaseFilter) : "all",
    next7: next7 === "1" || next7 === "true",
    availability: oneOf(AVAILABILITIES, params.get("availability")) ?? "all",
    quality: oneOf(QUALITIES, params.get("quality")) ?? "all",
  };
}

/** `value` when it is one of `values`. */
function oneOf<T extends string>(values: readonly T[], value: string | null): T | undefined {
  return (values as readonly string[]).includes(value ?? "") ? (value as T) : undefined;
}

const enc = encodeURIComponent;

/** Query keys of the song screens; every list sits under ["songs"] so `song` events can patch them all. */
export const songKeys = {
  feed: (feed: "trending" | "newest", filters: FeedFilters) => [...SONG_LISTS_KEY, "feed", feed, filters] as const,
  search: (q: string) => [...SONG_LISTS_KEY, "search", q] as const,
  recommendations: [...SONG_LISTS_KEY, "recommendations"] as const,
  favorites: [...SONG_LISTS_KEY, "favorites"] as const,
  pending: [...SONG_LISTS_KEY, "pending"] as const,
  detail: songDetailKey,
  history: (id: string) => [...songDetailKey(id), "history"] as const,
  versions: (id: string) => [...songDetailKey(id), "versions"] as const,
};

function pageQuery(path: string, params: Record<string, string | undefined>, cursor: string | undefined) {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) search.set(k, v);
  if (cursor) search.set("cursor", cursor);
  const qs = search.toString();
  return api.get<SongPage>(qs ? `${path}?${qs}` : path);
}

const nextPage = (last: SongPage) => last.nextCursor ?? undefined;

/** A cursor-paginated list of songs (GET `path` with `params`), as an infinite query under `queryKey`. */
function songPagesQuery(queryKey: QueryKey, path: string, params: Record<string, string | undefined> = {}) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => pageQuery(path, params, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextPage,
  });
}

/** A list of songs (GET `path`, newest first), a page at a time. */
export function useSongPages(queryKey: QueryKey, path: string) {
  return useInfiniteQuery(songPagesQuery(queryKey, path));
}

/** GET /api/songs: a home feed with the page's filters, cursor-paginated. */
export function feedQuery(feed: "trending" | "newest", filters: FeedFilters, limit: number) {
  return songPagesQuery(songKeys.feed(feed, filters), "/api/songs", {
    feed,
    genre: filters.genre,
    release: filters.release,
    next7: filters.next7 ? "true" : undefined,
    availability: filters.availability === "all" ? undefined : filters.availability,
    quality: filters.quality === "all" ? undefined : filters.quality,
    limit: String(limit),
  });
}

/** A home feed; keeps the previous filter's songs on screen while the new ones load. */
export function useFeed(feed: "trending" | "newest", filters: FeedFilters, limit: number) {
  return useInfiniteQuery({ ...feedQuery(feed, filters, limit), placeholderData: keepPreviousData });
}

/** An artist the search matched (first page only). */
export type ArtistHit = { id: string; name: string; trackCount?: number; isVerified?: boolean };

/** A page of search results: songs, plus matching artists on the first page. */
export type SearchPage = SongPage & { artists: ArtistHit[] };

/** GET /api/search, reshaped as a page of songs. */
export function useSearch(q: string) {
  return useInfiniteQuery({
    queryKey: songKeys.search(q),
    queryFn: async ({ pageParam }): Promise<SearchPage> => {
      const qs = new URLSearchParams({ q });
      if (pageParam) qs.set("cursor", pageParam);
      const res = await api.get<{ songs: Song[]; nextCursor: string | null; artists?: ArtistHit[] }>(
        `/api/search?${qs}`,
      );
      return { items: res.songs, nextCursor: res.nextCursor, artists: res.artists ?? [] };
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextPage,
    enabled: q.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/songs/recommendations (up to 8; visitors get them too). */
export function useRecommendations() {
  return useQuery({
    queryKey: songKeys.recommendations,
    queryFn: () => api.get<{ items: Song[] }>("/api/songs/recommendations"),
  });
}

/** GET /api/me/favorites: the signed-in user's favourites, newest first. */
export function useFavorites() {
  return useSongPages(songKeys.favorites, "/api/me/favorites");
}

/** GET /api/songs/pending: songs waiting for votes. */
export function usePendingSongs() {
  return useSongPages(songKeys.pending, "/api/songs/pending");
}

/** One song; starts from a copy a list already holds, so opening a card shows its page at once. */
export function useSong(id: string) {
  const queryClient = useQueryClient();
  return useQuery({
    ...queryOptions({
      queryKey: songKeys.detail(id),
      queryFn: () => api.get<Song>(`/api/songs/${enc(id)}`),
    }),
    placeholderData: () => cachedSong(queryClient, id),
  });
}

/** Earlier versions of a song, newest first. */
export function useSongHistory(id: string, enabled = true) {
  return useQuery({
    queryKey: songKeys.history(id),
    queryFn: async () => (await api.get<{ items: SongHistoryEntry[] }>(`/api/songs/${enc(id)}/history`)).items,
    enabled,
  });
}

/** The versions of a song (snippets, remixes...), oldest first. */
export function useSongVersions(id: string, enabled = true) {
  return useQuery({
    queryKey: songKeys.versions(id),
    queryFn: async () => (await api.get<{ items: Song[] }>(`/api/songs/${enc(id)}/versions`)).items,
    enabled,
  });
}

/** Link a song as a version of another, or unlink it (null): an edit of the owner's or an admin's. */
export function useLinkVersion(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: VersionLinkInput | null) =>
      input
        ? api.put<Song>(`/api/songs/${enc(id)}/version-of`, input)
        : apiFetch<Song>("DELETE", `/api/songs/${enc(id)}/version-of`),
    onSuccess: (song, input) => {
      queryClient.setQueryData(songKeys.detail(id), song);
      void queryClient.invalidateQueries({ queryKey: songKeys.history(id) });
      // The song it joined or left shows a new version count and list.
      for (const other of [input?.songId, song.versionOf?.id]) {
        if (other) void queryClient.invalidateQueries({ queryKey: songKeys.detail(other) });
      }
      void refreshSongLists(queryClient);
    },
  });
}

/** Set a favourite to the wanted state, optimistically: the heart and count change before the answer. */
export function useSetFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ song, want }: { song: Song; want: boolean }) =>
      want
        ? api.put<FavoriteState>(`/api/songs/${enc(song.id)}/favorite`, {})
        : apiFetch<FavoriteState>("DELETE", `/api/songs/${enc(song.id)}/favorite`),
    onMutate: ({ song, want }) => {
      const previous = { isFavorite: song.isFavorite, favoriteCount: song.favoriteCount };
      patchSong(queryClient, song.id, {
        isFavorite: want,
        favoriteCount: Math.max(0, song.favoriteCount + (want ? 1 : -1)),
      });
      return previous;
    },
    onError: (_err, { song }, previous) => {
      if (previous) patchSong(queryClient, song.id, previous);
    },
    onSuccess: (state, { song }) => {
      patchSong(queryClient, song.id, state);
      // The favourites page gains or loses the song.
      void queryClient.invalidateQueries({ queryKey: songKeys.favorites });
    },
  });
}

/**
 * The upload form's values as sent (the audio file travels last in the multipart body).
 * `allowDuplicateAudio` uploads even though the audio matches a song already on the site (admins see the match).
 */
export type UploadRequest = { fields: UploadSongInput; file: File; allowDuplicateAudio?: boolean };

function errorFromXhr(xhr: XMLHttpRequest): ApiError {
  const fallback =
    xhr.status === 413
      ? MESSAGES.audioTooLarge
      : xhr.status === 415
        ? MESSAGES.audioUnsupported
        : MESSAGES.uploadFailed;
  return errorFromBody(xhr.status, parseBody(xhr.responseText), fallback);
}

/**
 * POST /api/songs as multipart/form-data through XMLHttpRequest, which (unlike fetch) reports upload
 * progress. `onProgress` gets 0..1 while the bytes go up; the server then decodes before it answers.
 */
export function uploadSong(req: UploadRequest, onProgress: (fraction: number) => void, signal?: AbortSignal) {
  return new Promise<Song>((resolve, reject) => {
    if (!navigator.onLine) {
      reject(offlineError());
      return;
    }
    const { fields, file } = req;
    const form = new FormData();
    form.append("title", fields.title);
    for (const artist of fields.artists) form.append("artists", artist);
    form.append("genre", fields.genre);
    if (fields.releaseDate) form.append("releaseDate", fields.releaseDate);
    if (fields.soundcloudUrl) form.append("soundcloudUrl", fields.soundcloudUrl);
    // Leak details: names and tags as one comma-separated value each (the server's field count stays small), the
    // track length as typed.
    const singles = [
      "era",
      "versionLabel",
      "leakDate",
      "fileDate",
      "trackLength",
      "availability",
      "quality",
      "notes",
    ] as const;
    for (const name of singles) {
      const value = fields[name];
      if (value !== null && value !== undefined && value !== "") form.append(name, String(value));
    }
    for (const name of ["producers", "features", "references", "aliases", "tags"] as const) {
      const value = fields[name];
      const list = typeof value === "string" ? value : (value ?? []).join(", ");
      if (list.trim()) form.append(name, list);
    }
    // Links (issue 37) as one value, an address a line.
    const links = typeof fields.links === "string" ? fields.links : (fields.links ?? []).join("\n");
    if (links.trim()) form.append("links", links);
    if (req.allowDuplicateAudio) form.append("allowDuplicateAudio", "true");
    // Last, so the server has every field before the file streams in.
    form.append("audio", file, file.name);

    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/songs");
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      if (xhr.status === 201) {
        try {
          resolve(JSON.parse(xhr.responseText) as Song);
        } catch {
          reject(new ApiError({ code: "bad_response", message: MESSAGES.uploadFailed, status: xhr.status }));
        }
        return;
      }
      reject(errorFromXhr(xhr));
    };
    xhr.onerror = () => reject(networkError());
    xhr.onabort = () => reject(new ApiError({ code: "aborted", message: "Upload cancelled", status: 0 }));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** Upload a song; on success the pending grid (the song starts pending) and the profile's upload count reload. */
export function useUploadSong() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      request,
      onProgress,
      signal,
    }: {
      request: UploadRequest;
      onProgress: (fraction: number) => void;
      signal?: AbortSignal;
    }) => uploadSong(request, onProgress, signal),
    onSuccess: (song) => {
      queryClient.setQueryData(songKeys.detail(song.id), song);
      void queryClient.invalidateQueries({ queryKey: songKeys.pending });
      void queryClient.invalidateQueries({ queryKey: changesKeys.all });
      // The server's 'me' event brings the new count too, but only to a tab whose event stream is open.
      void queryClient.invalidateQueries({ queryKey: meKey });
    },
  });
}

/** Edit a song (owner, admins) or propose the edit (verified contributors). */
export function useEditSong(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EditSongInput) => api.patch<EditResult>(`/api/songs/${enc(id)}`, input),
    onSuccess: (result) => {
      if (!result.applied) return;
      queryClient.setQueryData(songKeys.detail(id), result.song);
      void queryClient.invalidateQueries({ queryKey: songKeys.history(id) });
      void refreshSongLists(queryClient);
      // The edit may be a line of its artist's changelog (issue 37), and changes its tracker.
      void queryClient.invalidateQueries({ queryKey: changesKeys.all });
      void queryClient.invalidateQueries({ queryKey: ["artist-tracker"] });
    },
  });
}

// Songs this tab deleted: their page must not announce 'Song not found' on the way out.
const deletedHere = new Set<string>();

/** True when this tab deleted the song (its page is leaving anyway). */
export function wasDeletedHere(id: string): boolean {
  return deletedHere.has(id);
}

/** Delete a song (super admin). */
export function useDeleteSong() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<OkResponse>("DELETE", `/api/songs/${enc(id)}`),
    onSuccess: (_res, id) => {
      deletedHere.add(id);
      removeSongFromLists(queryClient, id);
      queryClient.removeQueries({ queryKey: songKeys.detail(id) });
      void refreshSongLists(queryClient);
    },
  });
}

/** Report a song to the moderators. */
export function useReportSong() {
  return useMutation({
    mutationFn: ({ id, reason, details }: { id: string; reason: string; details: string }) =>
      api.post<OkResponse>(`/api/songs/${enc(id)}/reports`, { reason, details }),
  });
}

/** Answer of the SoundCloud match helper. */
export type SoundcloudMatches = { tracks: SoundcloudTrack[]; message?: string };

/** POST /api/soundcloud/matches: SoundCloud tracks that may be this song. */
export function useSoundcloudMatches() {
  return useMutation({
    mutationFn: (input: { title: string; artist: string }) =>
      api.post<SoundcloudMatches>("/api/soundcloud/matches", input),
  });
}
