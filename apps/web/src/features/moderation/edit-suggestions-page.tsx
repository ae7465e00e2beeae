import { type EditSuggestion, MESSAGES } from "@unheard/shared";
import { FilePenLine, GitCompareArrows } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "react-router";
import { Button, LinkButton } from "../../ui/button";
import { Pill } from "../../ui/list-states";
import { Notice } from "../../ui/notice";
import { CardList, oldestFirst, QueryListPage } from "../../ui/query-list-page";
import { formatDate } from "./format";
import { useEditSuggestions } from "./moderation";
import { QueueLoadMore } from "./queue-load-more";
import { ReviewDialog } from "./review-dialog";
import { SuggestionCompare } from "./suggestion-compare";

/** /edit-suggestions (admin): pending suggestions, original and suggested side by side, with Review. */
export function EditSuggestionsPage() {
  const suggestions = useEditSuggestions();
  const subtitle = oldestFirst(
    "pending suggestion",
    "pending suggestions",
    "Corrections the community has proposed to song details.",
  );
  return (
    <QueryListPage
      title="Edit Suggestions"
      // The whole queue's count, not the rows loaded so far.
      subtitle={subtitle(suggestions.data?.total ?? 0)}
      query={{ ...suggestions, data: suggestions.data?.items }}
      loadingLabel="Loading edit suggestions"
      errorMessage={MESSAGES.suggestionsLoadFailed}
      empty={{
        icon: GitCompareArrows,
        title: MESSAGES.noPendingEdits,
        text: "Suggested corrections to titles, artists and dates will show up here.",
      }}
    >
      {(items) => (
        <>
          <CardList items={items} spacing="gap-4">
            {(s) => <SuggestionCard suggestion={s} onStale={() => void suggestions.refetch()} />}
          </CardList>
          <QueueLoadMore query={suggestions} />
        </>
      )}
    </QueryListPage>
  );
}

function SuggestionCard({ suggestion, onStale }: { suggestion: EditSuggestion; onStale: () => void }) {
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const s = suggestion;
  return (
    <article aria-labelledby={titleId} className="rounded-2xl border border-white/[0.06] bg-zinc-900/60 p-4 md:p-5">
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-violet-500/15 text-violet-300">
            <FilePenLine aria-hidden className="size-4" />
          </span>
          <div className="min-w-0">
            <h2 id={titleId} className="truncate text-lg font-semibold text-white">
              <Link to={`/song/${s.songId}`} className="hover:text-violet-200 hover:underline">
                {s.original.title}
              </Link>
            </h2>
            <p className="text-sm text-zinc-400">
              Suggested by <span className="font-medium text-zinc-200">{s.submittedBy.username}</span> on{" "}
              <time dateTime={s.submittedAt}>{formatDate(s.submittedAt)}</time>
              {" · "}
              {s.changedFields.length} {s.changedFields.length === 1 ? "change" : "changes"}
            </p>
          </div>
        </div>
        <div className="flex items-center gap-2">
          {s.stale ? <Pill tone="amber">Song edited since</Pill> : null}
          <LinkButton to={`/song/${s.songId}`} variant="ghost" size="sm">
            View Song
          </LinkButton>
          <Button size="sm" onClick={() => setOpen(true)}>
            Review
          </Button>
        </div>
      </header>

      {s.stale ? (
        <Notice tone="error" className="mt-4">
          {MESSAGES.suggestionStale}
        </Notice>
      ) : null}

      <div className="mt-4 rounded-xl border border-white/[0.06] bg-zinc-950/40 p-3 md:p-4">
        <SuggestionCompare
          original={s.original}
          suggested={s.suggested}
          current={s.stale ? s.current : null}
          changedFields={s.changedFields}
        />
      </div>

      <div className="mt-4 text-sm">
        <p className="text-xs font-medium uppercase tracking-wider text-zinc-500">Reason</p>
        <p className="mt-1 whitespace-pre-line break-words text-zinc-200">{s.reason}</p>
      </div>

      {open ? <ReviewDialog suggestion={s} open={open} onOpenChange={setOpen} onStale={onStale} /> : null}
    </article>
  );
}
