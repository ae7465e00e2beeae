import { SYNC_MESSAGES, type TrackerLink } from "@unheard/shared";
import { CircleCheck, Clock, Pause, Pencil, Play, RefreshCw, SearchCheck, TriangleAlert, Unlink } from "lucide-react";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { handleError } from "../../lib/api/handle-error";
import { plural } from "../../lib/format";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { ConfirmDialog } from "../../ui/confirm-dialog";
import { DialogFrame } from "../../ui/dialog-frame";
import { Pill } from "../../ui/list-states";
import { batchCounts, STATUS_LABELS } from "./batch-words";
import { BusyIcon } from "./busy-icon";
import { ReviewDialog } from "./review-dialog";
import { SyncTime } from "./sync-time";
import { TrackerLinkForm } from "./tracker-link-form";
import { isBusy, useLinkWhileBusy, usePauseLink, useSyncNow, useUnlink } from "./tracker-links";

/** A link's state in words, with an icon beside (never colour alone). */
const STATES = {
  awaiting_approval: { label: "Not approved yet", tone: "amber", icon: Clock },
  active: { label: "Syncing on schedule", tone: "emerald", icon: CircleCheck },
  paused: { label: "Paused", tone: "neutral", icon: Pause },
} as const;

/** "every 30 minutes", "every 2 hours", "every day". */
function everyWords(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? "every day" : `every ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? "every hour" : `every ${minutes / 60} hours`;
  return `every ${plural(minutes, "minute")}`;
}

/** What the fields a sync changes were before it: to say how it ended. */
type Before = Pick<TrackerLink, "lastErrorAt" | "lastChangedAt" | "lastCheckedAt"> & { pendingId: string | null };
const before = (link: TrackerLink): Before => ({
  lastErrorAt: link.lastErrorAt,
  lastChangedAt: link.lastChangedAt,
  lastCheckedAt: link.lastCheckedAt,
  pendingId: link.pendingBatch?.id ?? null,
});

/**
 * How a sync that just settled ended, in words (the card's polite status line says it): what is shown, and what only
 * a screen reader hears (a failure's details, which the warning below the line shows).
 */
function endWords(was: Before, link: TrackerLink): { shown: string; heard?: string } {
  if (link.lastError && link.lastErrorAt !== was.lastErrorAt) return { shown: "Sync failed.", heard: link.lastError };
  return { shown: settledWords(was, link) };
}

/** How a sync that did not fail ended. */
function settledWords(was: Before, link: TrackerLink): string {
  if (link.pendingBatch && link.pendingBatch.id !== was.pendingId) return "Sync finished: waiting for your approval.";
  if (link.lastChangedAt !== was.lastChangedAt && link.lastBatch)
    return `Sync finished: ${batchCounts(link.lastBatch)}.`;
  if (link.lastCheckedAt !== was.lastCheckedAt) return "Sync finished: nothing changed.";
  return "Sync finished.";
}

/**
 * One linked tracker: its artist, sheet and state in words, when it was last checked and changed and syncs next,
 * the last error, a sync waiting for approval (Review), and Sync now, Pause or Resume, Change and Unlink. While a
 * sync runs it is polled every 2 s, and its polite status line says "Syncing…", then how the sync ended.
 */
export function TrackerLinkCard({ link, onUnlinked }: { link: TrackerLink; onUnlinked: () => void }) {
  useLinkWhileBusy(link);
  const id = useId();
  const syncNow = useSyncNow();
  const pause = usePauseLink();
  const unlink = useUnlink();
  const [editing, setEditing] = useState(false);
  const [reviewing, setReviewing] = useState(false);
  const [unlinking, setUnlinking] = useState(false);
  const [said, setSaid] = useState<{ shown: string; heard?: string } | null>(null);
  const nameRef = useRef<HTMLAnchorElement>(null);
  // After a review the Review button goes with the pending sync: focus goes to the artist's name instead.
  const refocus = useRef(false);
  useEffect(() => {
    if (refocus.current && !link.pendingBatch) {
      refocus.current = false;
      nameRef.current?.focus();
    }
  }, [link.pendingBatch]);
  const busy = isBusy(link);
  // The link as it was when its sync began: what changed since says how the sync ended.
  const started = useRef<Before | null>(null);
  useEffect(() => {
    if (busy && !started.current) {
      started.current = before(link);
      setSaid(null);
    } else if (!busy && started.current) {
      setSaid(endWords(started.current, link));
      started.current = null;
    }
  }, [busy, link]);

  const name = link.artist.name;
  const state = STATES[link.state];
  const paused = link.state === "paused";

  const sync = async () => {
    if (syncNow.isPending || busy) return;
    try {
      started.current = before(link);
      await syncNow.mutateAsync(link.id);
      toast.success(SYNC_MESSAGES.syncQueued);
    } catch (err) {
      started.current = null;
      handleError(err, "Failed to start the sync");
    }
  };

  const togglePause = async () => {
    if (pause.isPending) return;
    try {
      // Resuming syncs at once: its end is told like Sync now's.
      if (paused) started.current = before(link);
      await pause.mutateAsync({ id: link.id, paused: !paused });
      toast.success(paused ? "Sync resumed: the sheet is checked now" : "Sync paused");
    } catch (err) {
      if (paused) started.current = null;
      handleError(err, paused ? "Failed to resume the sync" : "Failed to pause the sync");
    }
  };

  return (
    <li>
      <article
        aria-labelledby={`${id}-name`}
        className="flex flex-col gap-4 rounded-2xl border border-white/[0.06] bg-zinc-900/60 p-5"
      >
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="flex min-w-0 flex-col gap-1">
            <h3 id={`${id}-name`} className="text-lg font-semibold break-words text-white">
              <Link
                ref={nameRef}
                to={`/artists/${link.artist.id}`}
                className="underline decoration-white/30 underline-offset-4 hover:decoration-white"
              >
                {name}
              </Link>
            </h3>
            <a
              href={link.sourceUrl}
              rel="noreferrer noopener"
              className="text-sm break-all text-violet-300 underline decoration-violet-300/40 underline-offset-4 hover:decoration-violet-300"
            >
              {link.sourceUrl}
            </a>
            <p role="status" className="relative flex items-center gap-2 text-sm text-zinc-300">
              {busy ? (
                <>
                  <BusyIcon />
                  {link.syncing ? "Syncing…" : "Applying the sync…"}
                </>
              ) : said ? (
                <>
                  {said.shown}
                  {said.heard ? <span className="sr-only"> {said.heard}</span> : null}
                </>
              ) : null}
            </p>
          </div>
          <Pill tone={state.tone}>
            <state.icon aria-hidden className="size-3.5" />
            {state.label}
          </Pill>
        </div>

        {link.pendingBatch ? (
          <div className="flex flex-col gap-3 rounded-xl border border-amber-400/30 bg-amber-500/10 px-4 py-3 text-sm text-amber-100 sm:flex-row sm:items-center sm:justify-between">
            <div className="flex min-w-0 items-start gap-2.5">
              <Clock aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-300" />
              <div className="min-w-0">
                <p className="font-semibold">Waiting for your approval</p>
                <p className="break-words text-amber-100/90">
                  {link.pendingBatch.holdReason ?? "This sync waits for an admin's approval."} Fetched{" "}
                  <SyncTime iso={link.pendingBatch.createdAt} />.
                </p>
              </div>
            </div>
            <Button
              size="sm"
              icon={<SearchCheck aria-hidden className="size-4" />}
              onClick={() => setReviewing(true)}
              aria-label={`Review the sync of ${name}'s tracker`}
              className="shrink-0 self-start sm:self-center"
            >
              Review
            </Button>
          </div>
        ) : null}

        {link.lastError ? (
          <div className="flex items-start gap-2.5 rounded-xl border border-amber-400/30 bg-amber-500/10 px-4 py-3 text-sm text-amber-100">
            <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-amber-300" />
            <p className="min-w-0 break-words">
              <span className="font-semibold">
                The last sync failed
                {link.lastErrorAt ? (
                  <>
                    {" "}
                    <SyncTime iso={link.lastErrorAt} />
                  </>
                ) : null}
                {link.failures > 1 ? ` (${link.failures} times in a row)` : ""}:
              </span>{" "}
              {link.lastError} The tracker keeps its last good state.
            </p>
          </div>
        ) : null}

        <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm lg:grid-cols-4">
          <Fact term="Schedule" wide="small">
            {everyWords(link.intervalMinutes)}, {link.asVerified ? "imported as verified" : "new songs pending"}
          </Fact>
          <Fact term="Last checked">{link.lastCheckedAt ? <SyncTime iso={link.lastCheckedAt} /> : "Not yet"}</Fact>
          <Fact term="Last changed">{link.lastChangedAt ? <SyncTime iso={link.lastChangedAt} /> : "Never"}</Fact>
          <Fact term="Next sync">
            {paused ? (
              "Paused"
            ) : link.pendingBatch ? (
              "After your approval"
            ) : link.nextSyncAt ? (
              <SyncTime iso={link.nextSyncAt} due />
            ) : (
              "Not planned"
            )}
          </Fact>
          {link.lastBatch ? (
            <Fact term="Last sync" wide="always">
              {STATUS_LABELS[link.lastBatch.status]}
              {link.lastBatch.status === "rejected" ? "" : `: ${batchCounts(link.lastBatch)}`}
              {link.lastBatch.approvedBy ? `, approved by ${link.lastBatch.approvedBy.username}` : ""}
            </Fact>
          ) : null}
        </dl>

        <div className="flex flex-wrap gap-2">
          {paused ? null : (
            <Button
              variant="secondary"
              size="sm"
              icon={syncNow.isPending || busy ? <BusyIcon /> : <RefreshCw aria-hidden className="size-4" />}
              onClick={() => void sync()}
              aria-disabled={syncNow.isPending || busy || undefined}
              aria-label={`Sync now: ${name}`}
            >
              Sync now
            </Button>
          )}
          <Button
            variant="secondary"
            size="sm"
            icon={
              pause.isPending ? (
                <BusyIcon />
              ) : paused ? (
                <Play aria-hidden className="size-4" />
              ) : (
                <Pause aria-hidden className="size-4" />
              )
            }
            onClick={() => void togglePause()}
            aria-disabled={pause.isPending || undefined}
            aria-label={`${paused ? "Resume" : "Pause"}: ${name}`}
          >
            {paused ? "Resume" : "Pause"}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            icon={<Pencil aria-hidden className="size-4" />}
            onClick={() => setEditing(true)}
            aria-label={`Change: ${name}`}
          >
            Change
          </Button>
          <Button
            variant="ghost"
            size="sm"
            icon={<Unlink aria-hidden className="size-4" />}
            onClick={() => setUnlinking(true)}
            aria-label={`Unlink: ${name}`}
          >
            Unlink
          </Button>
        </div>
      </article>

      <DialogFrame
        open={editing}
        onOpenChange={setEditing}
        title={`Change the link of ${name}'s tracker`}
        description="A new sheet link, or a change of import as verified, reads the sheet afresh now."
      >
        <TrackerLinkForm link={link} onDone={() => setEditing(false)} onCancel={() => setEditing(false)} />
      </DialogFrame>
      <ReviewDialog
        link={link}
        open={reviewing}
        onOpenChange={setReviewing}
        onDecided={() => {
          refocus.current = true;
        }}
      />
      <ConfirmDialog
        open={unlinking}
        onOpenChange={setUnlinking}
        title={`Unlink ${name}'s tracker?`}
        message="The sheet is no longer synced; the songs stay as they are. A sync waiting for approval is rejected."
        confirmLabel="Unlink"
        busy={unlink.isPending}
        onConfirm={async () => {
          try {
            await unlink.mutateAsync(link.id);
            toast.success("Tracker unlinked");
            setUnlinking(false);
            onUnlinked();
          } catch (err) {
            handleError(err, "Failed to unlink the tracker");
          }
        }}
      />
    </li>
  );
}

/** One fact of a link: its term above its value; `wide` takes a row of its own (on narrow screens, or always). */
function Fact({ term, wide, children }: { term: string; wide?: "small" | "always"; children: ReactNode }) {
  return (
    <div
      className={
        wide === "always" ? "col-span-2 lg:col-span-4" : wide === "small" ? "col-span-2 lg:col-span-1" : undefined
      }
    >
      <dt className="text-xs text-zinc-500">{term}</dt>
      <dd className="text-zinc-200">{children}</dd>
    </div>
  );
}
