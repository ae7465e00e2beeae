import {
  AVAILABILITY_LABELS,
  type Availability,
  isAllowedSoundcloudUrl,
  MESSAGES,
  SONG_TAG_LABELS,
  type Song,
  type SongHistoryEntry,
  type SongTag,
  soundcloudEmbedUrl,
  VERIFICATION_THRESHOLD,
} from "@unheard/shared";
import { clsx } from "clsx";
import { BadgeCheck, CalendarDays, Clock, EyeOff, Flag, Heart, History, Link2, Pencil, Share2 } from "lucide-react";
import { lazy, type ReactNode, Suspense, useState } from "react";
import { useNavigate, useParams } from "react-router";
import { formatReleaseDate, formatTimestamp, plural } from "../../lib/format";
import { loginPathFor } from "../../lib/safe-next";
import { toast } from "../../lib/toast";
import { Button, LinkButton } from "../../ui/button";
import { Notice } from "../../ui/notice";
import { Panel, usePageTitle } from "../../ui/page";
import { ResourcePage } from "../../ui/resource-page";
import { useSignedIn } from "../accounts/login-prompt";
import { useMe } from "../accounts/me";
import { QueueButtons } from "../player/queue-buttons";
import { itemFromSong } from "../player/queue-model";
import { VoteButtons, VoteProgress } from "../voting/vote-buttons";
import { FullPlayer } from "./audio-player";
import { FavoriteButton } from "./favorite-button";
import { ReportDialog } from "./report-dialog-lazy";
import { DeleteSongButton, VerifyButton } from "./song-admin-actions";
import { ArtistLinks, GenreChip } from "./song-card";
import { SongCover } from "./song-cover";
import { LeakDetailsPanel, leakDetailRows, VersionLabelBadge, VersionsPanel } from "./song-versions";
import { useSong, useSongHistory, wasDeletedHere } from "./songs";

// The admins' voter view loads only for admins, not with every song page.
const SongVotersPanel = lazy(() => import("../voting/song-voters-panel").then((m) => ({ default: m.SongVotersPanel })));

const HIDDEN_NOTICE = "This song is hidden";

/** /song/:id: everything about one song, its player, votes while pending, and the owner and admin actions. */
export function SongPage() {
  const { id = "" } = useParams();
  const song = useSong(id);
  const { me, isLoading } = useMe();
  return (
    // When this tab deleted the song, the page is leaving with its own toast. A visitor may be looking at a song
    // that waits for verification (members only): they are offered to log in and come back.
    <ResourcePage
      kind="song"
      id={id}
      query={song}
      title="Song Details"
      quietNotFound={wasDeletedHere(id)}
      {...(!me && !isLoading ? { signInPath: loginPathFor(`/song/${id}`) } : {})}
    >
      {(data) => <SongDetails song={data} />}
    </ResourcePage>
  );
}

/** 'Verified' or 'Pending · net / 3'. */
function StatusBadge({ song }: { song: Song }) {
  if (song.status === "verified") {
    return (
      <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-500/15 px-2.5 py-1 text-xs font-semibold text-emerald-300 ring-1 ring-emerald-400/30 ring-inset">
        <BadgeCheck aria-hidden className="size-3.5" />
        Verified
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1.5 rounded-full bg-amber-500/15 px-2.5 py-1 text-xs font-semibold text-amber-200 ring-1 ring-amber-400/30 ring-inset">
      <Clock aria-hidden className="size-3.5" />
      Pending · {song.net} / {VERIFICATION_THRESHOLD}
    </span>
  );
}

function SongDetails({ song }: { song: Song }) {
  const { me } = useMe();
  const navigate = useNavigate();
  const signedIn = useSignedIn();
  const [reportOpen, setReportOpen] = useState(false);
  const pending = song.status === "pending";
  usePageTitle(`${song.title} · ${song.artists.map((a) => a.name).join(", ")}`);

  const share = async () => {
    try {
      await navigator.clipboard.writeText(window.location.href);
      toast.success(MESSAGES.linkCopied);
    } catch {
      toast.error(MESSAGES.linkCopyFailed);
    }
  };

  const openReport = () => signedIn(MESSAGES.loginToReport, () => setReportOpen(true));

  const editPath = `/songs/${encodeURIComponent(song.id)}`;
  const editAction = song.canEdit ? (
    <LinkButton to={`${editPath}/edit`} variant="secondary" size="md">
      <Pencil aria-hidden className="size-4" />
      Edit
    </LinkButton>
  ) : (
    <LinkButton
      to={me ? `${editPath}/suggest-edit` : loginPathFor(`${editPath}/suggest-edit`)}
      variant="secondary"
      size="md"
    >
      <Pencil aria-hidden className="size-4" />
      Suggest edit
    </LinkButton>
  );

  return (
    <div className="flex flex-col gap-6">
      {song.isHidden ? (
        <Notice tone="info">
          <span className="inline-flex items-center gap-1.5 font-medium">
            <EyeOff aria-hidden className="size-4" />
            {HIDDEN_NOTICE}
          </span>{" "}
          Only admins can see it until it is shown again.
        </Notice>
      ) : null}

      {song.removedFromTrackerAt ? (
        <Notice tone="info">
          <span data-testid="removed-from-tracker-notice">
            Removed from the artist's tracker on {formatTimestamp(song.removedFromTrackerAt)}; it stays on Unheard.
          </span>
        </Notice>
      ) : null}

      <header className="flex flex-col gap-5 md:flex-row md:items-end md:gap-8">
        <SongCover
          src={song.coverUrl}
          title={song.title}
          eager
          className="aspect-square w-40 shrink-0 rounded-2xl shadow-2xl shadow-fuchsia-900/30 sm:w-52 md:w-60"
        />
        <div className="flex min-w-0 flex-col gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge song={song} />
            <GenreChip genre={song.genre} className="bg-white/5" />
          </div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <h1 className="min-w-0 text-3xl font-bold tracking-tight break-words text-white md:text-5xl">
              {song.title}
            </h1>
            <VersionLabelBadge song={song} />
          </div>
          <ArtistLinks song={song} className="text-lg text-zinc-300" />
          <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-zinc-400">
            {pending ? null : (
              <span className="inline-flex items-center gap-1.5">
                <CalendarDays aria-hidden className="size-4 text-zinc-500" />
                {formatReleaseDate(song.releaseDate)}
              </span>
            )}
            <span className="inline-flex items-center gap-1.5">
              <Heart aria-hidden className="size-4 text-zinc-500" />
              <span data-testid="song-favorite-count">{plural(song.favoriteCount, "favorite")}</span>
            </span>
          </p>
        </div>
      </header>

      <div className="flex flex-wrap items-center gap-2">
        <FavoriteButton song={song} size="md" />
        <Button variant="secondary" size="md" icon={<Share2 aria-hidden className="size-4" />} onClick={share}>
          Share
        </Button>
        {editAction}
        {!pending && !song.isOwner ? (
          <Button variant="secondary" size="md" icon={<Flag aria-hidden className="size-4" />} onClick={openReport}>
            Report
          </Button>
        ) : null}
        {pending && me?.isAdmin ? <VerifyButton song={song} size="md" /> : null}
        {song.canDelete ? (
          <DeleteSongButton song={song} size="md" onDeleted={() => void navigate("/", { replace: true })} />
        ) : null}
      </div>

      <Panel>
        <h2 className="sr-only">Player</h2>
        <FullPlayer song={song} />
        {song.audio ? (
          <div className="mt-4 flex flex-wrap items-center gap-2 border-t border-white/[0.06] pt-4">
            <QueueButtons title={song.title} item={() => itemFromSong(song)} variant="labelled" />
            <p className="ml-auto text-sm text-zinc-400 tabular-nums" data-testid="play-count">
              {plural(song.playCount, "play")}
            </p>
          </div>
        ) : null}
      </Panel>

      {/* The panels below hydrate each in its own task after the top of the page (see song-grid.tsx). */}

      {pending || song.myVote ? (
        <Panel className="flex flex-col gap-4">
          <div>
            <h2 className="text-lg font-semibold text-white">{pending ? "Help verify this song" : "Your vote"}</h2>
            <p className="mt-1 text-sm text-zinc-400">
              {pending
                ? `Is this real? It is verified at a net of ${VERIFICATION_THRESHOLD} votes.`
                : "You voted on this song. Click your vote again to withdraw it."}
            </p>
          </div>
          <VoteProgress song={song} className="max-w-md" />
          <VoteButtons song={song} className="max-w-md" />
        </Panel>
      ) : null}

      {me?.isAdmin && (pending || song.upvotes + song.downvotes > 0) ? (
        <Suspense fallback={null}>
          <SongVotersPanel songId={song.id} counts={`${song.upvotes}:${song.downvotes}`} myId={me.id} />
        </Suspense>
      ) : null}

      <Suspense fallback={null}>
        <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
          <Panel className="flex flex-col gap-3">
            <h2 className="text-lg font-semibold text-white">SoundCloud</h2>
            {song.soundcloudUrl && isAllowedSoundcloudUrl(song.soundcloudUrl) ? (
              <iframe
                title={`SoundCloud player: ${song.title}`}
                src={soundcloudEmbedUrl(song.soundcloudUrl)}
                className="h-[166px] w-full rounded-xl border-0 bg-zinc-950"
                loading="lazy"
                allow="encrypted-media"
              />
            ) : (
              <p className="flex items-center gap-2 text-sm text-zinc-500">
                <Link2 aria-hidden className="size-4" />
                {MESSAGES.linkNotAvailable}
              </p>
            )}
          </Panel>
          <Panel>
            <h2 className="mb-3 text-lg font-semibold text-white">Details</h2>
            <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
              <Detail label="Genre">{song.genre}</Detail>
              {pending ? null : <Detail label="Release date">{formatReleaseDate(song.releaseDate)}</Detail>}
              <Detail label="Status">
                {pending ? "Pending verification" : `Verified ${formatTimestamp(song.verifiedAt, "")}`.trim()}
              </Detail>
              <Detail label="Votes">
                {song.upvotes} up · {song.downvotes} down
              </Detail>
              <Detail label="Uploaded by">{song.submittedBy?.username ?? "Unknown"}</Detail>
              <Detail label="Added">{formatTimestamp(song.createdAt)}</Detail>
              <Detail label="Version">{song.version}</Detail>
            </dl>
          </Panel>
        </div>
      </Suspense>

      {/* Two columns only when both panels show. */}
      <Suspense fallback={null}>
        <div className={clsx("grid items-start gap-6", leakDetailRows(song).length > 0 && "lg:grid-cols-2")}>
          <LeakDetailsPanel song={song} />
          <VersionsPanel song={song} />
        </div>
      </Suspense>

      <Suspense fallback={null}>
        <SongHistory song={song} />
      </Suspense>
      <ReportDialog song={song} open={reportOpen} onOpenChange={setReportOpen} />
    </div>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-zinc-500">{label}</dt>
      <dd className="min-w-0 break-words text-zinc-200">{children}</dd>
    </>
  );
}

function SongHistory({ song }: { song: Song }) {
  const history = useSongHistory(song.id);
  const items = history.data ?? [];
  return (
    <Panel>
      <h2 className="mb-4 flex items-center gap-2 text-lg font-semibold text-white">
        <History aria-hidden className="size-5 text-fuchsia-300" />
        History
      </h2>
      {history.isPending ? (
        <p className="text-sm text-zinc-500">Loading history…</p>
      ) : history.isError ? (
        <p className="text-sm text-zinc-500">The history could not be loaded.</p>
      ) : (
        <ol className="relative flex flex-col gap-5 border-l border-white/10 pl-5">
          {items.map((entry) => (
            <HistoryItem key={entry.version} entry={entry} />
          ))}
          <li className="relative">
            <Dot />
            <p className="text-sm font-medium text-zinc-200">Version 1 · uploaded</p>
            <p className="text-xs text-zinc-500">
              {song.submittedBy ? `by ${song.submittedBy.username} · ` : ""}
              {formatTimestamp(song.createdAt)}
            </p>
          </li>
        </ol>
      )}
    </Panel>
  );
}

function Dot({ active }: { active?: boolean }) {
  return (
    <span
      aria-hidden
      className={clsx(
        "absolute top-1.5 -left-[25px] size-2.5 rounded-full ring-4 ring-zinc-900",
        active ? "bg-fuchsia-400" : "bg-zinc-600",
      )}
    />
  );
}

function HistoryItem({ entry }: { entry: SongHistoryEntry }) {
  const p = entry.previous;
  return (
    <li className="relative" data-testid="history-entry">
      <Dot active />
      <p className="text-sm font-medium text-zinc-200">Version {entry.version + 1} · edited</p>
      <p className="text-xs text-zinc-500">
        {entry.editedBy ? `by ${entry.editedBy.username} · ` : ""}
        {formatTimestamp(entry.editedAt)}
      </p>
      {entry.comment ? <p className="mt-1.5 text-sm text-zinc-300">“{entry.comment}”</p> : null}
      <p className="mt-1.5 text-xs text-zinc-500">
        Before: <span className="text-zinc-400">{p.title}</span>
        {p.versionLabel ? ` (${p.versionLabel})` : ""} by {p.artists.join(", ")} · {p.genre} ·{" "}
        {formatReleaseDate(p.releaseDate)}
        {p.availability ? ` · ${AVAILABILITY_LABELS[p.availability as Availability] ?? p.availability}` : ""}
        {p.era ? ` · ${p.era}` : ""}
        {p.tags && p.tags.length > 0 ? ` · ${p.tags.map((t) => SONG_TAG_LABELS[t as SongTag] ?? t).join(", ")}` : ""}
        {p.versionOf ? ` · version of ${p.versionOf.title}` : ""}
      </p>
    </li>
  );
}
