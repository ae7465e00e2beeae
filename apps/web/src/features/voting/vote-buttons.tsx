import {
  contestedNote,
  DOWNVOTE_REASONS,
  MESSAGES,
  type Song,
  VERIFICATION_THRESHOLD,
  VOTE_NOT_COUNTED_YET,
} from "@unheard/shared";
import { clsx } from "clsx";
import { LoaderCircle, ThumbsDown, ThumbsUp } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { isApiError } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { useLoginPrompt, useSignedIn } from "../accounts/login-prompt";
import { useVote } from "./votes";

// The reason dialog (Radix dialog) loads on the first downvote, not with every song card.
const DownvoteDialog = lazy(() => import("./downvote-dialog").then((m) => ({ default: m.DownvoteDialog })));

/** Net votes over the threshold as a progress bar ('2 / 3'). */
export function VoteProgress({ song, className }: { song: Song; className?: string }) {
  const pct = Math.max(0, Math.min(1, song.net / VERIFICATION_THRESHOLD)) * 100;
  const label = `${song.net} / ${VERIFICATION_THRESHOLD}`;
  return (
    <div className={clsx("flex flex-col gap-1.5", className)}>
      {/* Announced when it changes, from a vote here or live from others: "Net votes 2 / 3". */}
      <div aria-live="polite" aria-atomic="true" className="flex items-center justify-between text-xs">
        <span className="font-medium text-zinc-400">Net votes</span>
        <span data-testid="vote-net" className="font-semibold tabular-nums text-zinc-100">
          {label}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Votes towards verification"
        aria-valuemin={0}
        aria-valuemax={VERIFICATION_THRESHOLD}
        aria-valuenow={Math.max(0, Math.min(song.net, VERIFICATION_THRESHOLD))}
        aria-valuetext={label}
        className="h-1.5 overflow-hidden rounded-full bg-white/10"
      >
        <div
          className={clsx(
            "h-full rounded-full transition-[width] duration-500",
            song.status === "verified" ? "bg-emerald-400" : "bg-gradient-to-r from-violet-400 to-fuchsia-400",
          )}
          style={{ width: `${pct}%` }}
        />
      </div>
    </div>
  );
}

/** When a contested song can verify: day and time, as the open period ends at a moment, not a date. */
const formatMoment = (iso: string) =>
  new Date(iso).toLocaleString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });

const DIRECTIONS = ["up", "down"] as const;
type Direction = (typeof DIRECTIONS)[number];
type DownvoteReason = (typeof DOWNVOTE_REASONS)[number];

const isDownvoteReason = (value: string): value is DownvoteReason =>
  (DOWNVOTE_REASONS as readonly string[]).includes(value);

/**
 * Upvote and downvote with counts; the user's vote is highlighted. Clicking your vote again withdraws it
 * (spec §4 toggle flow: the page sends the state it wants); a downvote first asks for a reason.
 */
export function VoteButtons({
  song,
  compact = false,
  className,
}: {
  song: Song;
  /** Icons and counts only (cards); the buttons keep their names for screen readers. */
  compact?: boolean;
  className?: string;
}) {
  const vote = useVote();
  const promptLogin = useLoginPrompt();
  const signedIn = useSignedIn();
  const [downvoteOpen, setDownvoteOpen] = useState(false);
  // Mounted from the first open on, so the dialog keeps its state like an always-mounted one.
  const [downvoteWanted, setDownvoteWanted] = useState(false);
  const [busy, setBusy] = useState<Direction | null>(null);

  const send = async (
    value: Direction | "none",
    direction: Direction,
    reason?: { reason: string; details: string },
  ) => {
    setBusy(direction);
    try {
      const result = await vote.mutateAsync({
        song,
        value,
        ...(reason && isDownvoteReason(reason.reason)
          ? { reason: reason.reason, details: reason.details || undefined }
          : {}),
      });
      if (value === "none") toast.success(MESSAGES.voteRemoved);
      else toast.success(value === "up" ? MESSAGES.upvoted : MESSAGES.downvoted);
      if (result.verifiedNow) toast.success(MESSAGES.songVerifiedByVotes);
      return true;
    } catch (err) {
      if (isApiError(err) && err.status === 401) promptLogin(MESSAGES.loginToVerify);
      else handleError(err, direction === "up" ? MESSAGES.upvoteFailed : MESSAGES.downvoteFailed);
      return false;
    } finally {
      setBusy(null);
    }
  };

  const onUp = () => signedIn(MESSAGES.loginToVerify, () => void send(song.myVote === "up" ? "none" : "up", "up"));
  const onDown = () =>
    signedIn(MESSAGES.loginToVerify, () => {
      if (song.myVote === "down") void send("none", "down");
      else {
        setDownvoteWanted(true);
        setDownvoteOpen(true);
      }
    });

  const own = song.isOwner;
  return (
    <div className={clsx("flex flex-col gap-2", className)}>
      <div className="flex gap-2">
        {DIRECTIONS.map((direction) => (
          <VoteButton
            key={direction}
            direction={direction}
            count={direction === "up" ? song.upvotes : song.downvotes}
            active={song.myVote === direction}
            compact={compact}
            busy={busy === direction}
            disabled={own}
            waiting={busy !== null}
            onClick={direction === "up" ? onUp : onDown}
          />
        ))}
      </div>
      {own ? <p className="text-xs text-zinc-500">{MESSAGES.ownSongVote}</p> : null}
      {!compact && song.myVote && song.myVoteNote ? (
        <p data-testid="vote-note" className="text-xs leading-relaxed text-amber-200/90">
          {VOTE_NOT_COUNTED_YET} {song.myVoteNote}.
        </p>
      ) : null}
      {!compact && song.verifiableAt ? (
        <p data-testid="contested-note" className="text-xs leading-relaxed text-zinc-400">
          {contestedNote(formatMoment(song.verifiableAt))}
        </p>
      ) : null}
      {downvoteWanted ? (
        <Suspense fallback={null}>
          <DownvoteDialog
            open={downvoteOpen}
            onOpenChange={setDownvoteOpen}
            songTitle={song.title}
            submitting={busy === "down"}
            onSubmit={(reason) => send("down", "down", reason)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function VoteButton({
  direction,
  count,
  active,
  compact,
  busy,
  disabled,
  waiting,
  onClick,
}: {
  direction: Direction;
  count: number;
  active: boolean;
  compact: boolean;
  busy: boolean;
  disabled: boolean;
  /** A vote is on its way: presses are ignored, but the button keeps focus (a disabled one would drop it). */
  waiting: boolean;
  onClick: () => void;
}) {
  const up = direction === "up";
  const Icon = busy ? LoaderCircle : up ? ThumbsUp : ThumbsDown;
  const label = up ? "Upvote" : "Downvote";
  return (
    <button
      type="button"
      onClick={waiting ? undefined : onClick}
      disabled={disabled}
      aria-disabled={waiting || undefined}
      aria-pressed={active}
      // Named by its text, "Upvote 2" (WCAG 2.5.3); on a card only the count shows and the word is for screen readers.
      title={active ? `Remove your ${label.toLowerCase()}` : label}
      className={clsx(
        "relative inline-flex h-9 flex-1 items-center justify-center gap-2 rounded-full border px-3 text-sm font-medium tabular-nums transition-colors",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400 disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:opacity-50",
        active
          ? up
            ? "border-emerald-400/50 bg-emerald-500/20 text-emerald-200"
            : "border-rose-400/50 bg-rose-500/20 text-rose-200"
          : "border-white/10 bg-white/5 text-zinc-300 hover:bg-white/10 hover:text-white",
      )}
    >
      <Icon
        aria-hidden
        className={clsx("size-4", busy && "animate-spin")}
        fill={active && !busy ? "currentColor" : "none"}
      />
      <span className={compact ? "sr-only" : undefined}>{label}</span>{" "}
      <span className={compact ? "" : "text-xs opacity-70"}>{count}</span>
    </button>
  );
}
