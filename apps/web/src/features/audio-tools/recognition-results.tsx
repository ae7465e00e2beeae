import { foundMatchesMessage, MESSAGES } from "@unheard/shared";
import { clsx } from "clsx";
import { BadgeCheck } from "lucide-react";
import { Link } from "react-router";
import { formatDuration } from "../../lib/format";
import { HeaderRow } from "../../ui/data-table";
import { IconCircle } from "../../ui/icon-circle";
import { Notice } from "../../ui/notice";
import { Panel } from "../../ui/page";
import type { RecognitionCandidate, RecognitionMatch, RecognitionResult } from "./audio-tools";
import { potentialMatches } from "./recognition";

/** A 0..1 confidence as a whole percentage ('87%'). */
export const percent = (x: number) => `${Math.round(Math.max(0, Math.min(1, x)) * 100)}%`;

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The detected factors, e.g. 'tempo ×1.08 · pitch +1.3 st'. */
const factors = (t: NonNullable<RecognitionCandidate["transform"]>) => {
  const st = 12 * Math.log2(t.pitch);
  return `tempo \u00d7${t.tempo.toFixed(2)} \u00b7 pitch ${st >= 0 ? "+" : "\u2212"}${Math.abs(st).toFixed(1)} st`;
};

const artistNames = (c: RecognitionCandidate) => c.song.artists.map((a) => a.name).join(", ");

/** The certainty words as the page says them, with their colour (decision 028). */
const CERTAINTY_TEXT: Record<RecognitionMatch["certainty"], { word: string; className: string; says: string }> = {
  sure: { word: "Sure", className: "text-emerald-300", says: "far more than any unrelated song lines up" },
  likely: { word: "Likely", className: "text-sky-200", says: "well above chance, with a clear lead" },
  weak: { word: "Weak", className: "text-amber-200", says: "just past the bar: listen to check" },
};

/** The match, highlighted, with how sure it is in words and the evidence. */
function MatchCard({ match }: { match: RecognitionMatch }) {
  const certainty = CERTAINTY_TEXT[match.certainty];
  return (
    <div
      data-testid="recognition-match"
      className="flex flex-col gap-4 rounded-2xl border border-emerald-400/25 bg-gradient-to-br from-emerald-500/15 to-violet-500/10 p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex min-w-0 items-start gap-3">
        <IconCircle icon={BadgeCheck} className="size-11 shrink-0 bg-emerald-500/20 text-emerald-300" />
        <div className="min-w-0">
          <p className="text-xs font-semibold uppercase tracking-wider text-emerald-300">Match found</p>
          <Link
            to={`/song/${match.song.id}`}
            className="mt-0.5 block truncate text-xl font-bold text-white hover:text-violet-200 hover:underline"
          >
            {match.song.title}
          </Link>
          <p className="truncate text-sm text-zinc-300">{artistNames(match)}</p>
        </div>
      </div>
      <dl className="flex shrink-0 flex-wrap gap-x-6 gap-y-3 text-sm">
        <div data-testid="recognition-certainty">
          <dt className="text-xs text-zinc-400">How sure</dt>
          <dd className={clsx("text-lg font-semibold", certainty.className)}>{certainty.word}</dd>
          <dd className="max-w-56 text-xs text-zinc-400">
            {match.aligned.toLocaleString()} {match.evidence === "invariant" ? "triplets" : "hashes"} line up, the next
            song {match.runnerUpAligned.toLocaleString()}: {certainty.says}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-400">Confidence</dt>
          <dd className="text-lg font-semibold tabular-nums text-white">{percent(match.confidence)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-400">In the song at</dt>
          <dd className="text-lg font-semibold tabular-nums text-white">{formatDuration(match.offsetSeconds)}</dd>
        </div>
        {match.transform ? (
          <div data-testid="recognition-transform">
            <dt className="text-xs text-zinc-400">Heard</dt>
            <dd className="text-lg font-semibold text-amber-200">{capitalise(match.transform.label)}</dd>
            <dd className="text-xs tabular-nums text-zinc-400">{factors(match.transform)}</dd>
          </div>
        ) : null}
      </dl>
    </div>
  );
}

/** The candidate table's columns, with the classes of their header cells. */
const COLUMNS = [
  { key: "song", header: "Song", className: "pr-3" },
  { key: "artists", header: "Artists", className: "pr-3" },
  { key: "confidence", header: "Confidence", className: "w-44 pr-3" },
  { key: "offset", header: "Offset", className: "pr-3" },
  { key: "aligned", header: "Aligned hashes", className: "text-right" },
];

/** The ranked candidates as a table: song, artists, confidence bar, offset. */
function CandidateTable({ candidates, matchId }: { candidates: RecognitionCandidate[]; matchId: string | null }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[32rem] text-left text-sm">
        <thead className="text-xs uppercase tracking-wider text-zinc-500">
          <HeaderRow columns={COLUMNS} cellClassName="py-2 font-medium" />
        </thead>
        <tbody className="divide-y divide-white/[0.06]">
          {candidates.map((c) => (
            <tr key={c.song.id} className={clsx(c.song.id === matchId && "bg-emerald-500/[0.06]")}>
              <td className="py-2.5 pr-3">
                <Link
                  to={`/song/${c.song.id}`}
                  className="font-medium text-zinc-100 hover:text-violet-200 hover:underline"
                >
                  {c.song.title}
                </Link>
              </td>
              <td className="py-2.5 pr-3 text-zinc-400">{artistNames(c)}</td>
              <td className="py-2.5 pr-3">
                <div className="flex items-center gap-2">
                  <div className="h-1.5 flex-1 overflow-hidden rounded-full bg-white/10" aria-hidden>
                    <div
                      className={clsx(
                        "h-full rounded-full",
                        c.song.id === matchId ? "bg-emerald-400" : "bg-violet-400",
                      )}
                      style={{ width: percent(c.confidence) }}
                    />
                  </div>
                  <span className="w-10 text-right tabular-nums text-zinc-200">{percent(c.confidence)}</span>
                </div>
              </td>
              <td className="py-2.5 pr-3 tabular-nums text-zinc-300">
                {formatDuration(c.offsetSeconds)}
                {c.transform ? <span className="block text-xs text-amber-200/80">{c.transform.label}</span> : null}
              </td>
              <td className="py-2.5 text-right tabular-nums text-zinc-400">{c.aligned.toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The final answer of a recognition: the match and potential matches, or 'No matches found' with guidance. */
export function RecognitionResults({ result, matched }: { result: RecognitionResult; matched: boolean }) {
  const list = potentialMatches(result);
  const weak = result.candidates.filter((c) => !list.includes(c));
  return (
    <Panel className="flex flex-col gap-5">
      <h2 className="text-lg font-semibold text-white">Results</h2>
      {matched && result.match ? <MatchCard match={result.match} /> : null}
      {!matched ? (
        <Notice tone="info">
          <p className="font-semibold">{MESSAGES.noMatches}</p>
          <p className="mt-0.5 text-sky-100/80">{MESSAGES.noMatchesGuidance}</p>
        </Notice>
      ) : null}
      {list.length > 0 ? (
        <section aria-label="Potential matches" className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold text-zinc-200">{foundMatchesMessage(list.length)}</h3>
          <CandidateTable candidates={list} matchId={result.match?.song.id ?? null} />
        </section>
      ) : null}
      {weak.length > 0 ? (
        <details className="group rounded-xl border border-white/[0.06] px-4 py-2">
          <summary className="cursor-pointer text-sm text-zinc-400 hover:text-zinc-200">
            {weak.length === 1 ? "1 song" : `${weak.length} songs`} shared a few hashes by chance
          </summary>
          <div className="pb-2 pt-1">
            <CandidateTable candidates={weak} matchId={null} />
          </div>
        </details>
      ) : null}
    </Panel>
  );
}
