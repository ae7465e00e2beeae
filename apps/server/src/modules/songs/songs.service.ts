import { rm } from "node:fs/promises";
import {
  describeAudioTransform,
  duplicateAudioMessage,
  type EditResult,
  type FavoriteState,
  GENRES,
  LEAK_FIELDS,
  type LeakDetails,
  MESSAGES,
  RECOMMENDATIONS_LIMIT,
  type Song,
  type SongHistoryEntry,
  type SongPage,
  type VersionLinkInput,
} from "@unheard/shared";
import type { Kysely } from "kysely";
import type { Database } from "../../db/database.js";
import type { DB } from "../../db/schema.js";
import { AppError } from "../../errors.js";
import { type AudioFormat, audioErrorMessage, type DecodedAudio, decodeAudioFile } from "../../lib/audio.js";
import { audit } from "../../lib/audit.js";
import { decodeKeyset, decodeOffset, encodeCursor, keysetPage } from "../../lib/cursor.js";
import type { EventBus } from "../../lib/events.js";
import { newId } from "../../lib/ids.js";
import type { AudioStorage } from "../../lib/storage.js";
import { nameKey } from "../../lib/text.js";
import { nowIso, toIso } from "../../lib/time.js";
import type { Viewer } from "../auth/viewer.js";
import { type ChangeLine, describeNew, describeRenamed, describeUpdate } from "../changelog/change-summary.js";
import type { ChangelogService } from "../changelog/changelog.service.js";
import { coverUrl } from "../covers/covers.service.js";
import { insertSuggestion } from "../edit-suggestions/edit-suggestions.repo.js";
import type { Notifier } from "../notifications/notifications.service.js";
import type { TrustService } from "../trust/trust.service.js";
import { contestedUntil } from "../votes/contested.js";
import { leakColumns, leakOf, versionKindOf } from "./leak-details.js";
import type { FeedFilters, SongCardRow, SongRow, SongsRepo } from "./songs.repo.js";
import { maySee, type SongVisibility } from "./visibility.js";

/** Validated song fields (upload and edit). */
export type SongFields = {
  title: string;
  artists: string[];
  genre: (typeof GENRES)[number];
  releaseDate: string | null;
  soundcloudUrl: string | null;
} & LeakDetails;

/** Song rules: upload, read, feeds, search, favourites, edit, delete. */
export function createSongsService(deps: {
  database: Database;
  songs: SongsRepo;
  storage: AudioStorage;
  bus: EventBus;
  notifier: Notifier;
  /** Audio fingerprinting: duplicate checks and background indexing (absent in tools that only seed). */
  audio?: {
    findDuplicate(
      mono: Float32Array,
      sampleRate: number,
    ): Promise<{ songId: string; confidence: number; warp: { tempo: number; pitch: number } | null } | null>;
    enqueue(songId: string, trx: Kysely<DB>): Promise<string>;
  };
  /** Decisions 014/015: why a member's vote does not count yet, and the daily upload cap (absent in tools that only seed). */
  trust?: TrustService;
  /** How long a contested song stays open (decision 014). */
  contestedOpenHours?: number;
  /** Decode and measure an upload: the audio pool's threads (issue 24); unset, on this thread. */
  decode?: (file: string, format: AudioFormat) => Promise<DecodedAudio>;
  /** The artists' changelogs (issue 37): uploads and edits are lines of them (absent in tools that only seed). */
  changelog?: Pick<ChangelogService, "record">;
}) {
  const { database, songs, storage, bus, notifier, audio } = deps;
  // A suggestion made through an edit is held to the suggest route's rules (visibility, one open, daily cap).
  const suggestionChecks = { dialect: database.dialect, trust: deps.trust };
  /** A contested pending song: when it can verify (decision 014), or null. */
  const verifiableAt = (status: string, createdAt: unknown, down: number): string | null => {
    if (status === "verified") return null;
    const until = contestedUntil(String(toIso(createdAt as string)), down, deps.contestedOpenHours ?? 0);
    return until !== null && until > Date.now() ? new Date(until).toISOString() : null;
  };

  /** Credited artists and the submitter's and editor's names: from the rows when they carry them. */
  async function creditsOf(rows: (SongRow | SongCardRow)[]) {
    const artists = new Map<string, { id: string; name: string }[]>();
    const names = new Map<string, string>();
    const bare = rows.filter((r) => !("credits" in r));
    for (const r of rows) {
      if (!("credits" in r)) continue;
      const list = typeof r.credits === "string" ? JSON.parse(r.credits) : r.credits;
      artists.set(r.id, list ?? []);
      if (r.submitted_by && r.submitter_name !== null) names.set(r.submitted_by, r.submitter_name);
      if (r.last_edited_by && r.editor_name !== null) names.set(r.last_edited_by, r.editor_name);
    }
    if (bare.length > 0) {
      const people = [
        ...new Set(bare.flatMap((r) => [r.submitted_by, r.last_edited_by]).filter((x): x is string => Boolean(x))),
      ];
      const [credited, users] = await Promise.all([songs.artistsOf(bare.map((r) => r.id)), songs.usernames(people)]);
      for (const a of credited) {
        const list = artists.get(a.song_id) ?? [];
        list.push({ id: a.id, name: a.username });
        artists.set(a.song_id, list);
      }
      for (const u of users) names.set(u.id, u.username);
    }
    return { artists, names };
  }

  /** Songs as a visitor sees them (no personal state), in the rows' order. */
  async function publicSongs(rows: (SongRow | SongCardRow)[]): Promise<Song[]> {
    const [{ artists, names }, versions] = await Promise.all([
      creditsOf(rows),
      songs.versionFacts(
        rows.map((r) => r.id),
        [...new Set(rows.map((r) => r.version_of).filter((v): v is string => Boolean(v)))],
      ),
    ]);
    const ref = (id: string | null) => (id ? { id, username: names.get(id) ?? "deleted user" } : null);
    return rows.map((r) => {
      const up = Number(r.upvotes);
      const down = Number(r.downvotes);
      return {
        id: r.id,
        title: r.title,
        artists: artists.get(r.id) ?? [],
        genre: (GENRES as readonly string[]).includes(r.genre) ? (r.genre as Song["genre"]) : "Other",
        releaseDate: r.release_date,
        soundcloudUrl: r.soundcloud_url,
        status: r.status === "verified" ? "verified" : "pending",
        verifiedAt: toIso(r.verified_at),
        upvotes: up,
        downvotes: down,
        net: up - down,
        favoriteCount: Number(r.favorite_count),
        playCount: Number(r.play_count),
        reportCount: Number(r.report_count),
        version: Number(r.version),
        isHidden: Boolean(r.is_hidden),
        submittedBy: ref(r.submitted_by),
        createdAt: toIso(r.created_at),
        updatedAt: toIso(r.updated_at),
        lastEditedAt: toIso(r.last_edited_at),
        lastEditedBy: ref(r.last_edited_by),
        audio:
          r.audio_key && r.audio_mime
            ? {
                // Keyed by content so the file can be cached for a year.
                url: `/api/songs/${r.id}/audio?v=${(r.audio_sha256 ?? "").slice(0, 16)}`,
                mime: r.audio_mime,
                size: Number(r.audio_size ?? 0),
                durationSec: Number(r.duration_sec ?? 0),
                sampleRate: Number(r.sample_rate ?? 0),
                channels: Number(r.channels ?? 0),
                stats: {
                  min: Number(r.audio_min ?? 0),
                  max: Number(r.audio_max ?? 0),
                  mean: Number(r.audio_mean ?? 0),
                  silenceRatio: Number(r.silence_ratio ?? 0),
                },
              }
            : null,
        coverUrl: coverUrl(
          r.id,
          r.title,
          (artists.get(r.id) ?? []).map((a) => a.name),
        ),
        ...leakOf(r),
        removedFromTrackerAt: toIso(r.tracker_removed_at),
        versionOf:
          r.version_of && versions.parents.has(r.version_of)
            ? {
                id: r.version_of,
                title: versions.parents.get(r.version_of) ?? "",
                kind: versionKindOf(r.version_kind),
              }
            : null,
        versionCount: versions.counts.get(r.id) ?? 0,
        audioMatch: null,
        versionSuggestion: null,
        verifiableAt: verifiableAt(r.status, r.created_at, down),
        isFavorite: false,
        myVote: null,
        myVoteNote: null,
        isOwner: false,
        canEdit: false,
        canDelete: false,
      };
    });
  }

  /**
   * The same songs as `viewer` sees them: their favourites and votes (read now, never cached), what they may
   * do, and for admins the duplicate-audio matches of `rows` (moderation facts visitors never see).
   */
  async function personalize(shared: Song[], viewer: Viewer, rows?: SongRow[]): Promise<Song[]> {
    // Pending versions count only for admins and the song's owner, who may unlink them (the shared answer has none).
    const pendingVersions = await songs.pendingVersionCounts(
      shared.filter((s) => viewer.isAdmin || s.submittedBy?.id === viewer.id).map((s) => s.id),
    );
    const base = shared.map((s) => {
      const n = pendingVersions.get(s.id) ?? 0;
      return n > 0 ? { ...s, versionCount: s.versionCount + n } : s;
    });
    const ids = base.map((s) => s.id);
    const state = await songs.viewerState(viewer.id, ids);
    const matches = new Map<string, { songId: string; confidence: number }>();
    if (viewer.isAdmin && rows)
      for (const r of rows)
        if (r.audio_match_song_id)
          matches.set(r.id, { songId: r.audio_match_song_id, confidence: Number(r.audio_match_confidence ?? 0) });
    const matchTitles = new Map(
      (await songs.titles([...matches.values()].map((m) => m.songId))).map((t) => [t.id, t.title]),
    );
    // Only a member with a vote that does not count is told why (one look at their record, not one per song).
    const uncounted = [...state.votes.values()].some((v) => !v.counted);
    const eligibility = uncounted && deps.trust ? await deps.trust.eligibility(viewer.id) : undefined;
    const note = eligibility && !eligibility.eligible ? eligibility.note : null;
    const suggestions = await versionSuggestions(base, viewer);
    return base.map((song) => {
      const vote = state.votes.get(song.id);
      const isOwner = song.submittedBy?.id === viewer.id;
      const match = matches.get(song.id);
      return {
        ...song,
        audioMatch: match ? { ...match, title: matchTitles.get(match.songId) ?? "" } : null,
        versionSuggestion: suggestions.get(song.id) ?? null,
        isFavorite: state.favorites.has(song.id),
        myVote: vote?.value === 1 ? "up" : vote?.value === -1 ? "down" : null,
        myVoteNote: vote && !vote.counted ? note : null,
        isOwner,
        canEdit: isOwner || viewer.isAdmin || viewer.role === "verified_contributor",
        canDelete: viewer.isSuperAdmin,
      };
    });
  }

  /**
   * For the songs `viewer` may link (their own; any for admins) that are not versions and have none: the song
   * their audio matched on upload (or the song that one is a version of), offered as the song it may be a
   * version of when the viewer may link to it (their own song; any visible one for admins).
   */
  async function versionSuggestions(base: Song[], viewer: Viewer): Promise<Map<string, Song["versionSuggestion"]>> {
    const out = new Map<string, Song["versionSuggestion"]>();
    const open = base.filter(
      (s) => (viewer.isAdmin || s.submittedBy?.id === viewer.id) && !s.versionOf && s.versionCount === 0,
    );
    const matched = await songs.audioMatches(open.map((s) => s.id));
    if (matched.size === 0) return out;
    const found = new Map((await songs.findByIds([...new Set(matched.values())])).map((r) => [r.id, r]));
    const parents = new Map(
      (await songs.findByIds([...found.values()].map((r) => r.version_of).filter((v): v is string => Boolean(v)))).map(
        (r) => [r.id, r],
      ),
    );
    for (const [songId, matchId] of matched) {
      const match = found.get(matchId);
      const target = match?.version_of ? parents.get(match.version_of) : match;
      if (
        target &&
        !target.is_hidden &&
        target.id !== songId &&
        !target.version_of &&
        (viewer.isAdmin || target.submitted_by === viewer.id)
      )
        out.set(songId, { songId: target.id, title: target.title });
    }
    return out;
  }

  /** Turn rows into API songs for one viewer, in the rows' order. */
  async function hydrate(rows: (SongRow | SongCardRow)[], viewer: Viewer | undefined): Promise<Song[]> {
    const base = await publicSongs(rows);
    return viewer ? personalize(base, viewer, rows) : base;
  }

  /** A song the viewer may not see (visibility.ts) answers as a missing id does, so it is no existence oracle. */
  function visible<T extends SongVisibility>(row: T | undefined, viewer: Viewer | undefined): T {
    if (!row || !maySee(row, viewer)) throw new AppError("not_found", MESSAGES.songNotFound);
    return row;
  }

  /** The same check as visibleRow, reading four columns instead of the whole row. */
  async function visibleFlags(id: string, viewer: Viewer | undefined) {
    return visible(await songs.flags(id), viewer);
  }

  async function visibleRow(id: string, viewer: Viewer | undefined): Promise<SongRow> {
    return visible(await songs.findById(id), viewer);
  }

  async function one(id: string, viewer: Viewer | undefined): Promise<Song> {
    const [song] = await hydrate([visible(await songs.findCard(id), viewer)], viewer);
    if (!song) throw new AppError("not_found", MESSAGES.songNotFound);
    return song;
  }

  /** Whether an edit changes what identifies the song: its title or credited artists (as the duplicate check keys them). */
  async function identityChanged(trx: Kysely<DB>, row: SongRow, input: SongFields): Promise<boolean> {
    if (nameKey(input.title) !== row.title_key) return true;
    const current = (await songs.artistsOf([row.id], trx)).map((a) => nameKey(a.username));
    const wanted = input.artists.map(nameKey);
    return current.length !== wanted.length || current.some((key, i) => key !== wanted[i]);
  }

  /** What a history row keeps of a song as it was: its fields, leak details and version link. */
  async function snapshot(trx: Kysely<DB>, row: SongRow) {
    const artists = (await songs.artistsOf([row.id], trx)).map((a) => a.username);
    const parent = row.version_of ? await songs.findById(row.version_of, trx) : undefined;
    return {
      title: row.title,
      artists,
      genre: row.genre,
      releaseDate: row.release_date,
      soundcloudUrl: row.soundcloud_url,
      ...leakOf(row),
      versionOf: parent ? { id: parent.id, title: parent.title, kind: versionKindOf(row.version_kind) } : null,
    };
  }

  /** The history row of an edit: the values it replaces. */
  async function recordHistory(trx: Kysely<DB>, editorId: string, row: SongRow, comment: string | null, now: string) {
    await trx
      .insertInto("song_history")
      .values({
        id: newId(),
        song_id: row.id,
        version: Number(row.version),
        previous: JSON.stringify(await snapshot(trx, row)),
        comment,
        edited_by: editorId,
        edited_at: now,
      })
      .execute();
  }

  /** An edit's lines in the first credited artist's changelog: a rename, and what more (or better) circulates. */
  async function logEdit(
    trx: Kysely<DB>,
    artistId: string | undefined,
    before: SongRow,
    after: SongFields,
    now: string,
  ) {
    if (!deps.changelog || !artistId) return;
    const was = leakOf(before);
    const changed = LEAK_FIELDS.filter((f) => JSON.stringify(was[f]) !== JSON.stringify(after[f]));
    const lines: ChangeLine[] = [];
    if (before.title !== after.title) lines.push(describeRenamed(before.title, after.title));
    const line = describeUpdate(
      after.title,
      { availability: was.availability, quality: was.quality },
      { availability: after.availability, quality: after.quality },
      changed.map((f) => f.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`)),
    );
    if (line) lines.push(line);
    await deps.changelog.record(
      trx,
      lines.map((l) => ({ artistId, songId: before.id, line: l })),
      "edit",
      now,
    );
  }

  /**
   * Apply an edit inside `trx`: history row with the values it replaces, version + 1, lastEditedBy/At.
   * Returns the new version. Refuses a change that would duplicate another song.
   */
  async function applyEdit(
    trx: Kysely<DB>,
    editorId: string,
    id: string,
    input: SongFields,
    comment: string | null,
  ): Promise<number> {
    const titleKey = nameKey(input.title);
    await songs.lockTitle(trx, titleKey);
    const fresh = await songs.findById(id, trx);
    if (!fresh) throw new AppError("not_found", MESSAGES.songNotFound);
    if (await songs.findDuplicate(trx, titleKey, input.artists.map(nameKey), id)) {
      throw new AppError("conflict", MESSAGES.duplicateSong);
    }
    const now = nowIso();
    const version = Number(fresh.version);
    await recordHistory(trx, editorId, fresh, comment, now);
    const artistIds: string[] = [];
    for (const name of input.artists) artistIds.push(await songs.ensureArtist(trx, name));
    await trx
      .updateTable("song")
      .set({
        title: input.title,
        title_key: titleKey,
        genre: input.genre,
        release_date: input.releaseDate,
        soundcloud_url: input.soundcloudUrl,
        ...leakColumns(input),
        version: version + 1,
        last_edited_by: editorId,
        last_edited_at: now,
        updated_at: now,
      })
      .where("id", "=", id)
      .execute();
    await songs.setArtists(trx, id, artistIds);
    await logEdit(trx, artistIds[0], fresh, input, now);
    return version + 1;
  }

  return {
    hydrate,
    personalize,

    /** Take likes older than a week off trending (run periodically). */
    /** Take likes and plays that have aged out of the week off trending; the songs recounted. */
    refreshTrending: async () => (await songs.refreshWeekLikes()) + (await songs.refreshWeekPlays()),
    get: one,
    applyEdit,

    /** The row of a visible song (for audio streaming). */
    visibleRow,

    /** What decides who may see a song (visibility.ts), read now; undefined for an unknown song. */
    visibilityOf: (id: string) => songs.flags(id),

    async feed(
      q: { feed: "trending" | "newest"; cursor?: string | undefined; limit: number } & FeedFilters,
      viewer: Viewer | undefined,
    ): Promise<SongPage> {
      if (q.feed === "trending") {
        const offset = decodeOffset(q.cursor);
        const rows = await songs.trending(q, offset, q.limit + 1);
        const page = rows.slice(0, q.limit);
        return {
          items: await hydrate(page, viewer),
          nextCursor: rows.length > q.limit ? encodeCursor({ o: offset + q.limit }) : null,
        };
      }
      const rows = await songs.newest(q, decodeKeyset(q.cursor), q.limit + 1);
      const { page, nextCursor } = keysetPage(rows, q.limit, (r) => r.created_at);
      return { items: await hydrate(page, viewer), nextCursor };
    },

    /** The cards of songs by id, in the order given (search results). */
    async cards(ids: string[], viewer: Viewer | undefined): Promise<Song[]> {
      return hydrate(await songs.findCards(ids), viewer);
    },

    async favorites(viewer: Viewer, cursor: string | undefined, limit: number): Promise<SongPage> {
      const rows = await songs.favoritesOf(viewer.id, decodeKeyset(cursor), limit + 1);
      // Favourites page by when they were added, not when the song was.
      const { page, nextCursor } = keysetPage(rows, limit, (r) => r.favorited_at);
      return { items: await hydrate(page, viewer), nextCursor };
    },

    /** Spec §9: up to 10 from followed artists, 5 trending Electronic, 5 newest; deduplicated, not already liked. */
    async recommendations(viewer: Viewer | undefined): Promise<Song[]> {
      const src = await songs.recommendationSources(viewer?.id);
      const seen = new Set<string>();
      const picked: SongRow[] = [];
      for (const row of [...src.followed, ...src.electronic, ...src.latest]) {
        if (seen.has(row.id) || src.favorites.has(row.id)) continue;
        seen.add(row.id);
        picked.push(row);
        if (picked.length === RECOMMENDATIONS_LIMIT) break;
      }
      return hydrate(picked, viewer);
    },

    /** Spec §9: the landing page plays five demo tracks. */
    async landingTracks(): Promise<Song[]> {
      return hydrate(await songs.landingTracks(5), undefined);
    },

    async history(id: string, viewer: Viewer | undefined): Promise<SongHistoryEntry[]> {
      await visibleRow(id, viewer);
      const rows = await songs.history(id);
      return rows.map((r) => ({
        version: Number(r.version),
        previous: JSON.parse(r.previous) as SongHistoryEntry["previous"],
        comment: r.comment,
        editedBy: r.editor_id ? { id: r.editor_id, username: r.editor_name ?? "" } : null,
        editedAt: toIso(r.edited_at),
      }));
    },

    /**
     * The versions of a song, oldest first: verified ones for everyone; pending ones for admins, the song's owner
     * (who may unlink them) and their own uploader; hidden ones for admins only.
     */
    async versions(id: string, viewer: Viewer | undefined): Promise<Song[]> {
      const song = await visibleFlags(id, viewer);
      const admin = Boolean(viewer?.isAdmin);
      const owner = viewer !== undefined && song.submitted_by === viewer.id;
      const rows = await songs.versionsOf(id, {
        hidden: admin,
        pending: admin || owner,
        ...(viewer ? { ownerId: viewer.id } : {}),
      });
      return hydrate(rows, viewer);
    },

    /**
     * Link the song as a version of another (or unlink it, given null): an edit with a history row and a version
     * bump. A link needs both songs' owner, or an admin (issue 24: a link shows on the other song's page and
     * stops it from becoming a version itself); the owner of the song it is linked to may also unlink it. One
     * level deep: the other song must not be a version itself, and a song with versions cannot become one, so no
     * cycle can form.
     */
    async linkVersion(viewer: Viewer, id: string, input: VersionLinkInput | null): Promise<Song> {
      const row = await visibleRow(id, viewer);
      const mayEdit = row.submitted_by === viewer.id || viewer.isAdmin;
      if (!mayEdit && input) throw new AppError("forbidden", MESSAGES.editNoPermission);
      const changed = await database.tx(async (trx) => {
        // PostgreSQL: two links at once (A to B, B to A) must not both pass the checks below.
        await songs.lockVersions(trx);
        const fresh = await songs.findById(id, trx);
        if (!fresh) throw new AppError("not_found", MESSAGES.songNotFound);
        if (!mayEdit) {
          // Unlinking by someone else than its owner: only the owner of the song it is linked to.
          const parent = fresh.version_of ? await songs.findById(fresh.version_of, trx) : undefined;
          if (parent?.submitted_by !== viewer.id) throw new AppError("forbidden", MESSAGES.editNoPermission);
        }
        if (input) {
          const refuse = (message: string) =>
            new AppError("validation_failed", message, { fields: { songId: message } });
          if (input.songId === id) throw refuse(MESSAGES.versionOfSelf);
          const target = await songs.findById(input.songId, trx);
          if (!target || !maySee(target, viewer)) throw refuse(MESSAGES.versionTargetNotFound);
          if (target.submitted_by !== viewer.id && !viewer.isAdmin)
            throw new AppError("forbidden", MESSAGES.versionTargetNotYours, {
              fields: { songId: MESSAGES.versionTargetNotYours },
            });
          if (target.version_of) throw refuse(MESSAGES.versionOfVersion);
          if (await songs.hasVersions(id, trx)) throw refuse(MESSAGES.versionHasVersions);
        }
        const versionOf = input?.songId ?? null;
        const kind = input?.kind ?? null;
        if (fresh.version_of === versionOf && (fresh.version_kind ?? null) === kind) return undefined;
        const now = nowIso();
        const comment = input ? MESSAGES.versionLinked : MESSAGES.versionUnlinked;
        await recordHistory(trx, viewer.id, fresh, comment, now);
        const version = Number(fresh.version) + 1;
        await trx
          .updateTable("song")
          .set({
            version_of: versionOf,
            version_kind: kind,
            version,
            last_edited_by: viewer.id,
            last_edited_at: now,
            updated_at: now,
          })
          .where("id", "=", id)
          .execute();
        return { version, touched: [fresh.version_of, versionOf].filter((v): v is string => Boolean(v)) };
      });
      if (changed) {
        // The song and the songs it left or joined (their version counts) change on open pages.
        await bus.publish({ type: "song.changed", songId: id, data: { version: changed.version } });
        for (const other of changed.touched)
          await bus.publish({ type: "song.changed", songId: other, data: { edited: true } });
      }
      return one(id, viewer);
    },

    /** Store and register an uploaded song. The temp file is consumed (moved or deleted) in every case. */
    async upload(
      viewer: Viewer,
      fields: SongFields,
      file: { path: string; format: AudioFormat; size: number; sha256: string },
      opts: { allowDuplicateAudio?: boolean } = {},
    ): Promise<Song> {
      let stored: string | undefined;
      try {
        // A cheap refusal before the decode; the cap is judged again inside the write transaction below.
        await deps.trust?.assertUnderCap(database.db, viewer, "uploads");
        let analysis: DecodedAudio;
        try {
          analysis = await (deps.decode ?? decodeAudioFile)(file.path, file.format);
        } catch (err) {
          // A busy audio pool (503) is not the file's fault.
          if (err instanceof AppError) throw err;
          const message = audioErrorMessage(err);
          throw new AppError("bad_request", message, { fields: { audio: message } });
        }
        // The uploader hears about a duplicate before the song exists; if they go ahead, admins see the match.
        const duplicate = audio ? await audio.findDuplicate(analysis.mono, analysis.monoRate) : null;
        if (duplicate && !opts.allowDuplicateAudio) {
          const row = await songs.findById(duplicate.songId);
          // A song the uploader may not see (hidden, or pending for a waitlisted account) is not named (issue 24).
          if (row && !maySee(row, viewer)) {
            throw new AppError("conflict", MESSAGES.duplicateAudioHidden, {
              fields: { audio: MESSAGES.duplicateAudioHidden },
            });
          }
          const [existing] = row ? await hydrate([row], viewer) : [];
          if (existing && row) {
            const artists = existing.artists.map((a) => a.name).join(", ");
            // A match as it is: the very same bytes, or the same recording encoded again.
            const transform = describeAudioTransform(
              duplicate.warp?.tempo ?? 1,
              duplicate.warp?.pitch ?? 1,
              row.audio_sha256 !== file.sha256,
            );
            const message = duplicateAudioMessage(existing.title, artists, transform.label);
            throw new AppError("conflict", message, {
              fields: { audio: message },
              details: {
                duplicateOf: { id: existing.id, title: existing.title, artists },
                confidence: duplicate.confidence,
                transform,
              },
            });
          }
        }
        const id = newId();
        const key = `${id}-${file.sha256.slice(0, 12)}.${file.format.ext}`;
        const titleKey = nameKey(fields.title);
        const artistKeys = fields.artists.map(nameKey);
        await storage.putFile(key, file.path);
        stored = key;
        const now = nowIso();
        const notified = await database.tx(async (trx) => {
          // Judged again where the song is inserted: parallel uploads past the cap cannot all pass (issue 24).
          await deps.trust?.assertUnderCap(trx, viewer, "uploads");
          await songs.lockTitle(trx, titleKey);
          // Checked inside the write transaction, so two uploads of one song cannot both pass.
          if (await songs.findDuplicate(trx, titleKey, artistKeys)) {
            throw new AppError("conflict", MESSAGES.duplicateSong);
          }
          const artistIds: string[] = [];
          for (const name of fields.artists) artistIds.push(await songs.ensureArtist(trx, name));
          await trx
            .insertInto("song")
            .values({
              id,
              title: fields.title,
              title_key: titleKey,
              genre: fields.genre,
              release_date: fields.releaseDate,
              soundcloud_url: fields.soundcloudUrl,
              ...leakColumns(fields),
              submitted_by: viewer.id,
              audio_key: key,
              audio_mime: file.format.mime,
              audio_size: file.size,
              audio_sha256: file.sha256,
              duration_sec: analysis.durationSec,
              sample_rate: analysis.sampleRate,
              channels: analysis.channels,
              audio_min: analysis.stats.min,
              audio_max: analysis.stats.max,
              audio_mean: analysis.stats.mean,
              silence_ratio: analysis.stats.silenceRatio,
              audio_match_song_id: duplicate?.songId ?? null,
              audio_match_confidence: duplicate?.confidence ?? null,
              created_at: now,
              updated_at: now,
            })
            .execute();
          await songs.setArtists(trx, id, artistIds);
          // Indexed in the background by a durable job (a restart does not lose it).
          if (audio) await audio.enqueue(id, trx);
          if (deps.changelog && artistIds[0])
            await deps.changelog.record(
              trx,
              [{ artistId: artistIds[0], songId: id, line: describeNew(fields.title, fields) }],
              "upload",
              now,
            );
          return notifier.newSong(trx, { id, title: fields.title, artistIds, artistNames: fields.artists }, viewer.id);
        });
        // The row is committed: the file is its audio now, whatever happens below.
        stored = undefined;
        await notifier.announce(notified);
        // Open pending grids show the new song without a reload.
        await bus.publish({ type: "song.changed", songId: id, data: { created: true, status: "pending" } });
        // The uploader's open pages show their new upload count.
        await bus.publish({ type: "me.changed", userId: viewer.id });
        return one(id, viewer);
      } finally {
        // Nothing is left behind on failure: neither the temp file nor a stored copy.
        await rm(file.path, { force: true });
        if (stored) await storage.remove(stored);
      }
    },

    /**
     * Owner/admin edits apply (version+1, history row); verified contributors' go to admin review. So does an
     * owner's change of a verified song's title or artists (issue 24): what the badge vouched for changes only
     * after an admin's review; genre, dates, links and leak details still apply directly, with history.
     */
    async edit(viewer: Viewer, id: string, input: SongFields & { comment: string }): Promise<EditResult> {
      const row = await visibleRow(id, viewer);
      const isOwner = row.submitted_by === viewer.id;
      if (!isOwner && !viewer.isAdmin) {
        if (viewer.role !== "verified_contributor") throw new AppError("forbidden", MESSAGES.editNoPermission);
        const suggestionId = await database.tx((trx) =>
          insertSuggestion(trx, viewer, id, input, input.comment, suggestionChecks),
        );
        return { applied: false, message: MESSAGES.editSubmittedForReview, suggestionId };
      }
      const outcome = await database.tx(async (trx): Promise<{ version: number } | { suggestionId: string }> => {
        // Judged on the locked row, so a song verifying meanwhile cannot take a new title with it. The title lock
        // applyEdit takes comes first, as in every edit, so two edits cannot wait on each other.
        await songs.lockTitle(trx, nameKey(input.title));
        const fresh = viewer.isAdmin ? undefined : await songs.lockRow(trx, id);
        if (fresh?.status === "verified" && (await identityChanged(trx, fresh, input)))
          return { suggestionId: await insertSuggestion(trx, viewer, id, input, input.comment, suggestionChecks) };
        return { version: await applyEdit(trx, viewer.id, id, input, input.comment) };
      });
      if ("suggestionId" in outcome)
        return { applied: false, message: MESSAGES.editSubmittedForReview, suggestionId: outcome.suggestionId };
      await bus.publish({ type: "song.changed", songId: id, data: { version: outcome.version } });
      return { applied: true, message: MESSAGES.editSaved, song: await one(id, viewer) };
    },

    /** Super admin: remove the song with its votes, favourites, fingerprints and audio file. */
    async remove(viewer: Viewer, id: string): Promise<void> {
      const gone = await database.tx(async (trx) => {
        const row = await songs.findById(id, trx);
        if (!row) throw new AppError("not_found", MESSAGES.songNotFound);
        await audit(trx, viewer.id, "song.deleted", id, { title: row.title });
        await songs.setArtists(trx, id, []);
        await trx.deleteFrom("song").where("id", "=", id).execute();
        return row;
      });
      if (gone.audio_key) await storage.remove(gone.audio_key);
      // The row is gone: the event carries what the stream needs to know who could see the song.
      await bus.publish({
        type: "song.changed",
        songId: id,
        data: { deleted: true, status: gone.status, isHidden: Boolean(gone.is_hidden) },
      });
      // The uploader's count went down with the row.
      if (gone.submitted_by) await bus.publish({ type: "me.changed", userId: gone.submitted_by });
    },

    /** Set the wanted favourite state; idempotent, counter moves only with the row. */
    async setFavorite(viewer: Viewer, id: string, want: boolean): Promise<FavoriteState> {
      await visibleFlags(id, viewer);
      const state = await database.tx(async (trx) => {
        let changed = false;
        // Whether the like added or removed counts for this week's trending.
        let thisWeek = false;
        const weekAgo = new Date(Date.now() - 7 * 864e5).toISOString();
        if (want) {
          const res = await trx
            .insertInto("favorite")
            .values({ song_id: id, user_id: viewer.id, created_at: nowIso() })
            .onConflict((oc) => oc.columns(["user_id", "song_id"]).doNothing())
            .executeTakeFirst();
          changed = Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
          thisWeek = changed;
        } else {
          const removed = await trx
            .deleteFrom("favorite")
            .where("song_id", "=", id)
            .where("user_id", "=", viewer.id)
            .returning("created_at")
            .executeTakeFirst();
          changed = removed !== undefined;
          thisWeek = removed !== undefined && toIso(removed.created_at) >= weekAgo;
        }
        // The counters move with the row, in this transaction; RETURNING saves reading them back.
        const row = changed
          ? await trx
              .updateTable("song")
              .set((eb) => ({
                favorite_count: eb("favorite_count", "+", want ? 1 : -1),
                ...(thisWeek ? { week_likes: eb("week_likes", "+", want ? 1 : -1) } : {}),
              }))
              .where("id", "=", id)
              .returning("favorite_count")
              .executeTakeFirstOrThrow()
          : await trx.selectFrom("song").select("favorite_count").where("id", "=", id).executeTakeFirstOrThrow();
        return { isFavorite: want, favoriteCount: Number(row.favorite_count), changed };
      });
      if (state.changed)
        await bus.publish({ type: "song.changed", songId: id, data: { favoriteCount: state.favoriteCount } });
      return { isFavorite: state.isFavorite, favoriteCount: state.favoriteCount };
    },
  };
}

/** The songs service type. */
export type SongsService = ReturnType<typeof createSongsService>;
