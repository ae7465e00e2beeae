import { type IdentifyAnswer, type IdentifyMatch, MESSAGES, REPORT_REASONS } from "@unheard/shared";
import { clsx } from "clsx";
import { BadgeCheck, Ear, Flag, RotateCcw, SearchX, Upload } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { isApiError } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button, LinkButton } from "../../ui/button";
import { IconCircle } from "../../ui/icon-circle";
import { Panel } from "../../ui/page";
import { ReasonDialog } from "../../ui/reason-dialog";
import { AvailabilityBadge, QualityBadge, songPath } from "../artists/tracker-parts";
import { fromPosition, reportWithClip } from "./identify";

/** The certainty words as Identify says them (decision 028), with their colour on the dark card. */
const CERTAINTY: Record<IdentifyMatch["certainty"], { word: string; className: string; says: string }> = {
  sure: { word: "Sure", className: "text-emerald-300", says: "the clip lines up with this song and no other" },
  likely: { word: "Likely", className: "text-sky-200", says: "well above chance, with a clear lead" },
  weak: { word: "Weak", className: "text-amber-200", says: "just past the bar: have a listen to check" },
};

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** One fact of the answer: a label over its value. */
function Fact({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div data-testid={testId} className="min-w-0">
      <dt className="text-xs text-zinc-400">{label}</dt>
      <dd className="mt-0.5 text-base font-semibold text-white">{children}</dd>
    </div>
  );
}

/** The song found: title and artists, how sure, where in the song, how it was changed, and its tracker entry. */
function FoundCard({ match }: { match: IdentifyMatch }) {
  const { song, tracker } = match;
  const certainty = CERTAINTY[match.certainty];
  const eraLink =
    tracker.artistId && tracker.era
      ? `/artists/${encodeURIComponent(tracker.artistId)}?era=${encodeURIComponent(tracker.era)}`
      : null;
  return (
    <div data-testid="identify-match" className="flex flex-col gap-5">
      <div className="flex min-w-0 items-start gap-4">
        <img
          src={song.coverUrl}
          alt=""
          width={80}
          height={80}
          className="size-20 shrink-0 rounded-xl bg-zinc-800 object-cover"
        />
        <div className="min-w-0">
          <Link
            to={songPath(song.id)}
            className="block break-words text-xl font-bold text-white underline decoration-white/30 underline-offset-4 hover:text-violet-200 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400"
          >
            {song.title}
          </Link>
          <p className="break-words text-sm text-zinc-300">
            {song.artists.map((a, i) => (
              <span key={a.id}>
                {i > 0 ? ", " : null}
                <Link
                  to={`/artists/${encodeURIComponent(a.id)}`}
                  className="hover:text-white hover:underline focus-visible:outline-2 focus-visible:outline-violet-400"
                >
                  {a.name}
                </Link>
              </span>
            ))}
          </p>
          {song.status === "pending" ? (
            <p className="mt-1 text-xs text-amber-200">Pending: members are still voting on this upload</p>
          ) : null}
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3">
        <Fact label="How sure" testId="identify-certainty">
          <span className={certainty.className}>{certainty.word}</span>
          <span className="block text-xs font-normal text-zinc-400">{certainty.says}</span>
        </Fact>
        <Fact label="In the song" testId="identify-position">
          <span className="tabular-nums">{capitalise(fromPosition(match.offsetSeconds))}</span>
        </Fact>
        <Fact label="Heard" testId="identify-transform">
          {match.transform ? (
            <span className="text-amber-200">{capitalise(match.transform.label)}</span>
          ) : (
            <span>As released</span>
          )}
        </Fact>
      </dl>
      <section
        aria-label="On the tracker"
        data-testid="identify-tracker"
        className="flex flex-col gap-2 rounded-xl border border-white/[0.08] bg-zinc-950/40 px-4 py-3"
      >
        <h3 className="text-xs font-medium uppercase tracking-wider text-zinc-400">On the tracker</h3>
        <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-200">
          <span>
            Era:{" "}
            {eraLink ? (
              <Link
                to={eraLink}
                className="font-medium text-violet-200 underline decoration-violet-300/40 underline-offset-4 hover:text-white"
              >
                {tracker.era}
              </Link>
            ) : (
              <span className="text-zinc-400">none named</span>
            )}
          </span>
          {tracker.versionLabel ? <span className="text-zinc-400">· {tracker.versionLabel}</span> : null}
        </p>
        <p className="flex flex-wrap items-center gap-2 text-sm text-zinc-300">
          {tracker.availability || tracker.quality ? (
            <>
              <AvailabilityBadge value={tracker.availability} />
              <QualityBadge value={tracker.quality} />
            </>
          ) : (
            <span className="text-zinc-400">Availability not known yet</span>
          )}
        </p>
      </section>
    </div>
  );
}

/**
 * "Wrong song?": report the song named with the clip attached, the one way a clip is kept (until an admin handles
 * the report). Absent when there is no clip to attach, or the song is the member's own.
 */
function ReportWithClip({ match, clip }: { match: IdentifyMatch; clip: Blob }) {
  const [open, setOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  if (sent) return <p className="text-sm text-emerald-200">{MESSAGES.identifyReportSent}</p>;
  return (
    <>
      <Button variant="ghost" className="w-full sm:w-fit" onClick={() => setOpen(true)}>
        <Flag aria-hidden className="size-4" />
        Wrong song? Report it with your clip
      </Button>
      <ReasonDialog
        open={open}
        onOpenChange={setOpen}
        title="Report with your clip"
        description={
          <>
            Tell the moderators what is wrong with “{match.song.title}”. {MESSAGES.identifyClipAttachNote}
          </>
        }
        reasons={REPORT_REASONS}
        reasonRequiredMessage={MESSAGES.reportReasonRequired}
        submitLabel="Send report and clip"
        submitting={sending}
        onSubmit={async ({ reason, details }) => {
          setSending(true);
          try {
            const res = await reportWithClip({ songId: match.song.id, reason, details, clip });
            toast.success(res.message ?? MESSAGES.identifyReportSent);
            setSent(true);
            return true;
          } catch (err) {
            handleError(err, MESSAGES.reportFailed);
            // Already reported, own song or gone: nothing to retry in the dialog.
            return isApiError(err) && [403, 404, 409].includes(err.status);
          } finally {
            setSending(false);
          }
        }}
      />
    </>
  );
}

/** Under "Not on Unheard yet": the way to add the song; under "hardly any music": how to try again. */
function NotFoundCard({ answer, waitlisted }: { answer: IdentifyAnswer; waitlisted: boolean }) {
  if (!answer.heard) {
    return (
      <div data-testid="identify-heard-nothing" className="flex items-center gap-3">
        <IconCircle icon={Ear} className="size-11 shrink-0 bg-amber-500/15 text-amber-200" />
        <p className="min-w-0 text-sm text-zinc-300">{MESSAGES.identifyHeardNothingGuidance}</p>
      </div>
    );
  }
  return (
    <div data-testid="identify-not-found" className="flex flex-col gap-4">
      <div className="flex items-center gap-3">
        <IconCircle icon={SearchX} className="size-11 shrink-0 bg-sky-500/15 text-sky-200" />
        <p className="min-w-0 text-sm text-zinc-300">{MESSAGES.identifyNotOnUnheardGuidance}</p>
      </div>
      {waitlisted ? (
        <p className="text-sm text-zinc-400">Once an admin lets you in from the waitlist, you can upload it.</p>
      ) : (
        <LinkButton to="/upload" size="lg" className="w-full sm:w-fit">
          <Upload aria-hidden className="size-4" />
          Upload it
        </LinkButton>
      )}
    </div>
  );
}

/** The final answer: the song found, or not; its heading takes focus so keyboard and screen readers land on it. */
export function IdentifyAnswerCard({
  answer,
  waitlisted,
  clip,
  onAgain,
}: {
  answer: IdentifyAnswer;
  waitlisted: boolean;
  /** The clip the answer was made from, to attach to a report (members only: reports are theirs). */
  clip: Blob | null;
  onAgain: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <Panel
      className={clsx(
        "flex flex-col gap-5",
        answer.match && "border-emerald-400/25 bg-gradient-to-br from-emerald-500/10 to-violet-500/10",
      )}
    >
      <h2
        ref={heading}
        tabIndex={-1}
        data-testid="identify-answer"
        className="flex items-center gap-2 text-lg font-semibold text-white focus:outline-none"
      >
        {answer.match ? <BadgeCheck aria-hidden className="size-5 shrink-0 text-emerald-300" /> : null}
        {answer.match ? "Found it" : answer.message}
      </h2>
      {answer.match ? <FoundCard match={answer.match} /> : <NotFoundCard answer={answer} waitlisted={waitlisted} />}
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
        <Button variant="secondary" className="w-full sm:w-fit" onClick={onAgain}>
          <RotateCcw aria-hidden className="size-4" />
          Identify another
        </Button>
        {answer.match && clip && !waitlisted ? <ReportWithClip match={answer.match} clip={clip} /> : null}
      </div>
    </Panel>
  );
}
