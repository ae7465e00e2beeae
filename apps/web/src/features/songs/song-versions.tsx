import {
  AVAILABILITY_LABELS,
  formatTrackLength,
  MESSAGES,
  QUALITY_LABELS,
  SONG_TAG_LABELS,
  SONG_TAG_MARKS,
  type Song,
  VERSION_KIND_LABELS,
  VERSION_KINDS,
  type VersionKind,
} from "@unheard/shared";
import { clsx } from "clsx";
import { ExternalLink, GitBranch, Link2, Music2, Unlink } from "lucide-react";
import { type ReactNode, useId, useState } from "react";
import { Link } from "react-router";
import { handleError } from "../../lib/api/handle-error";
import { formatPartialDate, linkParts, plural } from "../../lib/format";
import { toast } from "../../lib/toast";
import { useDebounced } from "../../lib/use-debounced";
import { Button } from "../../ui/button";
import { Panel } from "../../ui/page";
import { SearchInput } from "../../ui/search-input";
import { Select } from "../../ui/select";
import { useMe } from "../accounts/me";
import { useLinkVersion, useSearch, useSongVersions } from "./songs";

const songPath = (id: string) => `/song/${encodeURIComponent(id)}`;

/** 'Snippet of', 'Remix of'... as a short noun: 'Snippet', 'Remix'. */
const KIND_NOUNS: Record<VersionKind, string> = {
  snippet: "Snippet",
  remix: "Remix",
  alternate: "Alternate version",
  official: "Official release",
};

/**
 * The leak details that are set, as label and value (issue 16; tracker details issue 27); none when nothing is
 * known. The version label is not among them: the page shows it beside the title.
 */
export function leakDetailRows(song: Song): [string, ReactNode][] {
  const rows: [string, ReactNode][] = [];
  if (song.tags.length > 0) rows.push(["Tags", <SongTagBadges key="tags" song={song} />]);
  if (song.era) rows.push(["Era", song.era]);
  if (song.aliases.length > 0) rows.push(["Also known as", song.aliases.join(", ")]);
  if (song.producers.length > 0) rows.push(["Producers", song.producers.join(", ")]);
  if (song.features.length > 0) rows.push(["Featuring", song.features.join(", ")]);
  if (song.references.length > 0) rows.push(["Reference by", song.references.join(", ")]);
  // As precise as known (issue 37): "2019", "Jun 2019" or "Jun 21, 2019".
  if (song.leakDate) rows.push(["Leak date", formatPartialDate(song.leakDate)]);
  if (song.fileDate) rows.push(["File date", formatPartialDate(song.fileDate)]);
  if (song.trackLength !== null) rows.push(["Track length", formatTrackLength(song.trackLength)]);
  if (song.availability) rows.push(["Availability", AVAILABILITY_LABELS[song.availability]]);
  if (song.quality) rows.push(["Audio quality", QUALITY_LABELS[song.quality]]);
  if (song.notes) rows.push(["Notes", song.notes]);
  if (song.links.length > 0) rows.push(["Links", <LeakLinks key="links" links={song.links} />]);
  return rows;
}

/**
 * Where the leak can be found (issue 37): members' links to other sites, so nofollow and ugc, opened in a new tab
 * without the page's address or a handle on it. Each shows its host first; the rest of the address tells two links on
 * one host apart.
 */
function LeakLinks({ links }: { links: string[] }) {
  return (
    <ul className="flex flex-col gap-1.5" data-testid="leak-links">
      {links.map((href) => {
        const parts = linkParts(href);
        if (!parts) return null;
        return (
          <li key={href} className="min-w-0">
            <a
              href={href}
              target="_blank"
              rel="nofollow ugc noopener noreferrer"
              title={href}
              // Inline, not flex: the host and the rest read as one address ("pixeldrain.com/u/abc").
              className="relative rounded-sm break-all text-violet-200 underline decoration-violet-300/40 underline-offset-2 hover:decoration-violet-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
            >
              <span className="font-medium">{parts.host}</span>
              {parts.rest ? <span className="text-zinc-400">{parts.rest}</span> : null}
              <ExternalLink aria-hidden className="ml-1 inline-block size-3 align-baseline text-zinc-400" />
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** A song's tags as badges with their marks: '⭐ Best of'. */
function SongTagBadges({ song }: { song: Song }) {
  return (
    <ul className="flex flex-wrap gap-1.5">
      {song.tags.map((tag) => (
        <li
          key={tag}
          className="inline-flex items-center gap-1 rounded-full bg-white/5 px-2.5 py-0.5 text-xs font-medium text-zinc-200 ring-1 ring-white/10 ring-inset"
        >
          <span aria-hidden>{SONG_TAG_MARKS[tag]}</span>
          {SONG_TAG_LABELS[tag]}
        </li>
      ))}
    </ul>
  );
}

/** The song page's 'Leak details' panel: only the fields that are set; nothing when none is. */
export function LeakDetailsPanel({ song }: { song: Song }) {
  const rows = leakDetailRows(song);
  if (rows.length === 0) return null;
  return (
    <Panel>
      <h2 className="mb-3 text-lg font-semibold text-white">Leak details</h2>
      <dl data-testid="leak-details" className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-zinc-500">{label}</dt>
            <dd className="min-w-0 break-words whitespace-pre-line text-zinc-200">{value}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}

/** A tracker's version label ('V2') as a small badge beside a title; nothing when the song has none. */
export function VersionLabelBadge({ song, size = "md" }: { song: Song; size?: "sm" | "md" }) {
  if (!song.versionLabel) return null;
  return (
    <span
      data-testid="version-label"
      // A long label is cut short on a card; the whole label shows on hover.
      title={size === "sm" ? song.versionLabel : undefined}
      className={clsx(
        "inline-block shrink-0 truncate rounded-md bg-white/10 font-semibold text-zinc-100 ring-1 ring-white/15 ring-inset",
        size === "sm" ? "max-w-16 px-1.5 py-px text-[11px]" : "max-w-full px-2 py-0.5 text-sm",
      )}
    >
      <span className="sr-only">Version label: </span>
      {song.versionLabel}
    </span>
  );
}

/** A song's tag marks before its title on a card ('⭐'), each named by its label for screen readers. */
export function SongTagMarks({ song }: { song: Song }) {
  if (song.tags.length === 0) return null;
  return (
    <span data-testid="tag-marks" className="inline-flex shrink-0 items-center gap-0.5 text-sm leading-none">
      {song.tags.map((tag) => (
        <span key={tag} role="img" aria-label={SONG_TAG_LABELS[tag]} title={SONG_TAG_LABELS[tag]}>
          {SONG_TAG_MARKS[tag]}
        </span>
      ))}
    </span>
  );
}

/**
 * The song page's 'Versions' panel: the song it is a version of, or its own versions; for its owner and admins
 * the 'Link as a version of…' control (and the song its audio matched on upload, one click away).
 */
export function VersionsPanel({ song }: { song: Song }) {
  const { me } = useMe();
  const canLink = song.isOwner || Boolean(me?.isAdmin);
  if (!song.versionOf && song.versionCount === 0 && !canLink) return null;
  return (
    <Panel className="flex flex-col gap-4">
      <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
        <GitBranch aria-hidden className="size-5 text-fuchsia-300" />
        Versions
      </h2>
      {song.versionOf ? (
        <p data-testid="version-of" className="text-sm text-zinc-300">
          {VERSION_KIND_LABELS[song.versionOf.kind]}{" "}
          <Link
            to={songPath(song.versionOf.id)}
            className="font-medium text-violet-300 underline decoration-violet-300/40 underline-offset-2 hover:decoration-violet-300"
          >
            {song.versionOf.title}
          </Link>
        </p>
      ) : null}
      {song.versionCount > 0 ? <VersionList song={song} /> : null}
      {canLink ? <LinkControl song={song} /> : null}
    </Panel>
  );
}

function VersionList({ song }: { song: Song }) {
  const versions = useSongVersions(song.id, song.versionCount > 0);
  if (versions.isPending) return <p className="text-sm text-zinc-500">Loading versions…</p>;
  if (versions.isError) return <p className="text-sm text-zinc-500">The versions could not be loaded.</p>;
  return (
    <ul aria-label="Versions of this song" className="flex flex-col gap-2">
      {versions.data.map((v) => (
        <li key={v.id} className="flex items-center gap-3 rounded-xl border border-white/[0.06] px-3 py-2">
          <Music2 aria-hidden className="size-4 shrink-0 text-zinc-500" />
          <span className="min-w-0 flex-1">
            <Link to={songPath(v.id)} className="block truncate text-sm font-medium text-zinc-100 hover:underline">
              {v.title}
            </Link>
            <span className="block truncate text-xs text-zinc-500">
              {v.artists.map((a) => a.name).join(", ")}
              {v.status === "pending" ? " · pending" : ""}
            </span>
          </span>
          {v.versionOf ? (
            <span className="shrink-0 rounded-full bg-white/5 px-2.5 py-0.5 text-xs text-zinc-300">
              {KIND_NOUNS[v.versionOf.kind]}
            </span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** One-click links for a suggested song: 'Link as snippet', 'Link as remix'... */
export function VersionSuggestion({ song }: { song: Song }) {
  const link = useLinkVersion(song.id);
  const target = song.versionSuggestion;
  if (!target || song.versionOf) return null;
  const linkAs = async (kind: VersionKind) => {
    try {
      await link.mutateAsync({ songId: target.songId, kind });
      toast.success(MESSAGES.versionLinked);
    } catch (err) {
      handleError(err, MESSAGES.editFailed);
    }
  };
  return (
    <div className="flex flex-col gap-2 rounded-xl border border-violet-400/20 bg-violet-500/[0.06] p-3">
      <p className="text-sm text-zinc-300">
        The audio matches{" "}
        <Link
          to={songPath(target.songId)}
          className="font-medium text-violet-200 underline decoration-violet-200/40 underline-offset-2 hover:decoration-violet-200"
        >
          {target.title}
        </Link>
        . Is this a version of it?
      </p>
      <div className="flex flex-wrap gap-2">
        {VERSION_KINDS.map((kind) => (
          <Button key={kind} variant="secondary" size="sm" disabled={link.isPending} onClick={() => void linkAs(kind)}>
            Link as {KIND_NOUNS[kind].toLowerCase()}
          </Button>
        ))}
      </div>
    </div>
  );
}

function LinkControl({ song }: { song: Song }) {
  const link = useLinkVersion(song.id);
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState("");
  const [kind, setKind] = useState<VersionKind>("snippet");
  const [picked, setPicked] = useState<{ id: string; title: string } | null>(null);
  const term = useDebounced(q.trim());
  const results = useSearch(open ? term : "");
  const kindId = useId();
  const searchId = useId();

  const run = async (input: { songId: string; kind: VersionKind } | null, done: string) => {
    try {
      await link.mutateAsync(input);
      toast.success(done);
      setOpen(false);
      setPicked(null);
      setQ("");
    } catch (err) {
      handleError(err, MESSAGES.editFailed);
    }
  };

  if (song.versionOf) {
    return (
      <div>
        <Button
          variant="ghost"
          size="sm"
          icon={<Unlink aria-hidden className="size-4" />}
          loading={link.isPending}
          onClick={() => void run(null, MESSAGES.versionUnlinked)}
        >
          Unlink version
        </Button>
      </div>
    );
  }
  // A song with versions of its own stays the original (one level deep).
  if (song.versionCount > 0) return null;
  const candidates = (results.data?.pages.flatMap((p) => p.items) ?? [])
    .filter((s) => s.id !== song.id && !s.versionOf)
    .slice(0, 6);

  return (
    <div className="flex flex-col gap-3">
      <VersionSuggestion song={song} />
      {open ? (
        <div className="flex flex-col gap-3 rounded-xl border border-white/10 p-3">
          <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_12rem]">
            <div className="flex flex-col gap-1.5">
              <label htmlFor={searchId} className="text-sm font-medium text-zinc-200">
                Song it is a version of
              </label>
              <div className="relative">
                <SearchInput
                  id={searchId}
                  value={q}
                  onChange={(e) => {
                    setQ(e.target.value);
                    setPicked(null);
                  }}
                  placeholder="Search by title"
                  autoComplete="off"
                  className="h-11 rounded-xl bg-zinc-950/60 pr-3 text-[15px]"
                />
              </div>
            </div>
            <div className="flex flex-col gap-1.5">
              <label htmlFor={kindId} className="text-sm font-medium text-zinc-200">
                Kind
              </label>
              <Select id={kindId} value={kind} onChange={(e) => setKind(e.target.value as VersionKind)}>
                {VERSION_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {KIND_NOUNS[k]}
                  </option>
                ))}
              </Select>
            </div>
          </div>
          {term && !picked ? (
            candidates.length > 0 ? (
              <ul aria-label="Matching songs" className="flex flex-col gap-1">
                {candidates.map((s) => (
                  <li key={s.id}>
                    <button
                      type="button"
                      onClick={() => setPicked({ id: s.id, title: s.title })}
                      className="flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left hover:bg-white/5 focus-visible:outline-2 focus-visible:outline-violet-400"
                    >
                      <span className="min-w-0 flex-1">
                        <span className="block truncate text-sm font-medium text-zinc-100">{s.title}</span>
                        <span className="block truncate text-xs text-zinc-500">
                          {s.artists.map((a) => a.name).join(", ")}
                        </span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            ) : results.isFetching ? (
              <p className="text-sm text-zinc-500">Searching…</p>
            ) : (
              <p className="text-sm text-zinc-500">No verified song matches “{term}”.</p>
            )
          ) : null}
          {picked ? (
            <p className="text-sm text-zinc-300">
              {VERSION_KIND_LABELS[kind]} <span className="font-medium text-white">{picked.title}</span>
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              disabled={!picked}
              loading={link.isPending}
              icon={<Link2 aria-hidden className="size-4" />}
              onClick={() => picked && void run({ songId: picked.id, kind }, MESSAGES.versionLinked)}
            >
              Link version
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div>
          <Button
            variant="secondary"
            size="sm"
            icon={<Link2 aria-hidden className="size-4" />}
            onClick={() => setOpen(true)}
          >
            Link as a version of…
          </Button>
        </div>
      )}
    </div>
  );
}

/** 'N versions' on a card, when the song has any. */
export function VersionCount({ song }: { song: Song }) {
  if (song.versionCount === 0) return null;
  return (
    <span
      data-testid="version-count"
      className="inline-flex shrink-0 items-center gap-1 rounded-full bg-white/5 px-2 py-0.5 text-xs text-zinc-300"
    >
      <GitBranch aria-hidden className="size-3" />
      {plural(song.versionCount, "version")}
    </span>
  );
}
