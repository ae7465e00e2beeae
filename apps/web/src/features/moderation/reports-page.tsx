import { MESSAGES, type Report } from "@unheard/shared";
import { Check, Eye, EyeOff, Flag, ShieldCheck, X } from "lucide-react";
import { useId } from "react";
import { Link } from "react-router";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button, LinkButton } from "../../ui/button";
import { Pill } from "../../ui/list-states";
import { CardList, oldestFirst, QueryListPage } from "../../ui/query-list-page";
import { formatDate, REPORT_REASON_LABELS } from "./format";
import { useProcessReport, useReports, useSetSongHidden } from "./moderation";
import { QueueLoadMore } from "./queue-load-more";

/** /reports (admin): the pending reports, oldest first, with View Song, Hide, Reject and Resolve. */
export function ReportsPage() {
  const reports = useReports();
  const subtitle = oldestFirst("pending report", "pending reports", "Songs the community has flagged for review.");
  return (
    <QueryListPage
      title="Reports"
      // The whole queue's count, not the rows loaded so far.
      subtitle={subtitle(reports.data?.total ?? 0)}
      query={{ ...reports, data: reports.data?.items }}
      loadingLabel="Loading reports"
      errorMessage={MESSAGES.reportsLoadFailed}
      empty={{
        icon: ShieldCheck,
        title: MESSAGES.noPendingReports,
        text: "New reports from listeners will show up here.",
      }}
    >
      {(items) => (
        <>
          <CardList items={items} spacing="gap-3">
            {(report) => <ReportCard report={report} />}
          </CardList>
          <QueueLoadMore query={reports} />
        </>
      )}
    </QueryListPage>
  );
}

/** What a report's card offers besides View Song and Hide: dismiss it, or settle it. */
const PROCESS_ACTIONS = [
  { action: "reject", label: "Reject", icon: X, variant: "secondary" },
  { action: "resolve", label: "Resolve", icon: Check, variant: "primary" },
] as const;

function ReportCard({ report }: { report: Report }) {
  const titleId = useId();
  const process = useProcessReport();
  const hide = useSetSongHidden();
  const busy = process.isPending || hide.isPending;

  const onProcess = (action: "resolve" | "reject") =>
    process.mutate(
      { id: report.id, action },
      {
        onSuccess: (res) =>
          toast.success(res.message ?? (action === "resolve" ? MESSAGES.reportResolved : MESSAGES.reportRejected)),
        onError: (err) => handleError(err, MESSAGES.reportProcessFailed),
      },
    );

  const onToggleHidden = () => {
    const hidden = !report.songHidden;
    hide.mutate(
      { songId: report.songId, hidden },
      {
        onSuccess: (res) => toast.success(res.message ?? (hidden ? MESSAGES.songHidden : MESSAGES.songUnhidden)),
        onError: (err) => handleError(err, hidden ? "Failed to hide song" : "Failed to unhide song"),
      },
    );
  };

  return (
    <article
      aria-labelledby={titleId}
      className="rounded-2xl border border-white/[0.06] bg-zinc-900/60 p-4 transition-colors hover:border-white/10 md:p-5"
    >
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0 flex-1">
          <div className="flex items-start gap-2.5">
            <span className="grid size-8 shrink-0 place-items-center rounded-lg bg-rose-500/15 text-rose-300">
              <Flag aria-hidden className="size-4" />
            </span>
            <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1 pt-0.5">
              <h2 id={titleId} className="min-w-0 text-lg leading-snug font-semibold break-words text-white">
                <Link to={`/song/${report.songId}`} className="hover:text-violet-200 hover:underline">
                  {report.songTitle}
                </Link>
              </h2>
              {report.songHidden ? (
                <Pill tone="amber">
                  <EyeOff aria-hidden className="size-3" /> Hidden
                </Pill>
              ) : null}
            </div>
          </div>
          <dl className="mt-3 grid grid-cols-[5.75rem_1fr] gap-x-4 gap-y-2 text-sm sm:grid-cols-[7rem_1fr]">
            <dt className="text-zinc-500">Reason</dt>
            <dd>
              <Pill tone="rose">{REPORT_REASON_LABELS[report.reason] ?? report.reason}</Pill>
            </dd>
            <dt className="text-zinc-500">Details</dt>
            <dd className={report.details ? "whitespace-pre-line break-words text-zinc-200" : "text-zinc-500 italic"}>
              {report.details || "No details given"}
            </dd>
            {report.reason === "fake_leak" ? (
              <>
                <dt className="text-zinc-500">If resolved</dt>
                <dd className="text-zinc-400">
                  The song is marked as fake and hidden; its uploader and upvoters lose the points earned on it and take
                  a strike on their trust.
                </dd>
              </>
            ) : null}
            {report.hasClip ? (
              <>
                <dt className="text-zinc-500">Clip</dt>
                <dd>
                  {/* The clip the reporter identified the song from: fetched only when played. */}
                  {/* biome-ignore lint/a11y/useMediaCaption: a clip of music with no speech to caption */}
                  <audio
                    controls
                    preload="none"
                    src={`/api/reports/${encodeURIComponent(report.id)}/clip`}
                    aria-label={`Clip attached to the report of ${report.songTitle}`}
                    data-testid="report-clip"
                    className="h-9 w-full max-w-sm"
                  />
                </dd>
              </>
            ) : null}
            <dt className="text-zinc-500">Reported by</dt>
            <dd className="text-zinc-200">
              <span className="font-medium">{report.reporter.username}</span>
              <span className="text-zinc-500"> · </span>
              <time dateTime={report.createdAt} className="text-zinc-400">
                {formatDate(report.createdAt)}
              </time>
            </dd>
          </dl>
        </div>
        <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap lg:shrink-0 lg:flex-nowrap lg:justify-end [&>*]:w-full sm:[&>*]:w-auto">
          <LinkButton to={`/song/${report.songId}`} variant="ghost" size="sm">
            View Song
          </LinkButton>
          <Button
            variant="secondary"
            size="sm"
            icon={
              report.songHidden ? <Eye aria-hidden className="size-4" /> : <EyeOff aria-hidden className="size-4" />
            }
            loading={hide.isPending}
            disabled={busy}
            onClick={onToggleHidden}
          >
            {report.songHidden ? "Unhide song" : "Hide song"}
          </Button>
          {PROCESS_ACTIONS.map(({ action, label, icon: Icon, variant }) => (
            <Button
              key={action}
              variant={variant}
              size="sm"
              icon={<Icon aria-hidden className="size-4" />}
              loading={process.isPending && process.variables?.action === action}
              disabled={busy}
              onClick={() => onProcess(action)}
            >
              {label}
            </Button>
          ))}
        </div>
      </div>
    </article>
  );
}
