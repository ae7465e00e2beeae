import type { ImportEra } from "@unheard/shared";
import { formatReleaseDate, plural } from "../../lib/format";
import { Panel } from "../../ui/page";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** Characters of an era's story shown: its first line, cut short. */
const STORY_CHARS = 160;

/** A date as precise as the sheet says it: "2019", "Mar 2019" or "Mar 5, 2019". */
function partialDate(value: string): string {
  if (/^\d{4}$/.test(value)) return value;
  const month = /^(\d{4})-(\d{2})$/.exec(value);
  if (month) return `${MONTHS[Number(month[2]) - 1] ?? month[2]} ${month[1]}`;
  return formatReleaseDate(value, value);
}

/** An era's span in words: "2018 – 2019", "from 2018", "until Mar 2019", or null when the sheet gives none. */
export function spanWords(startsOn: string | null, endsOn: string | null): string | null {
  if (startsOn && endsOn)
    return startsOn === endsOn ? partialDate(startsOn) : `${partialDate(startsOn)} – ${partialDate(endsOn)}`;
  if (startsOn) return `from ${partialDate(startsOn)}`;
  if (endsOn) return `until ${partialDate(endsOn)}`;
  return null;
}

/** The first line of an era's story, cut short. */
function storyLine(description: string | null): string | null {
  const first = description
    ?.split("\n")
    .find((l) => l.trim() !== "")
    ?.trim();
  if (!first) return null;
  return first.length > STORY_CHARS ? `${first.slice(0, STORY_CHARS - 1)}…` : first;
}

/**
 * The eras the sheet's era header rows state, as the import will make them: each one's name, where it is, its span,
 * its counts as the sheet states them, and a line of its story.
 */
export function ErasPanel({ eras, manyTabs }: { eras: ImportEra[]; manyTabs: boolean }) {
  return (
    <Panel className="flex flex-col gap-4">
      <div>
        <h2 className="text-lg font-semibold text-white">Eras in the sheet</h2>
        <p className="mt-1 text-sm text-zinc-400">
          {plural(eras.length, "era header row")}: each becomes the artist's era with its story and span, and the songs
          under it (with a blank Era cell) belong to it.
        </p>
      </div>
      <ul className="grid gap-3 md:grid-cols-2">
        {eras.map((era) => {
          const span = spanWords(era.startsOn, era.endsOn);
          const story = storyLine(era.description);
          return (
            <li
              key={`${era.tab}\u0000${era.line}`}
              className="flex min-w-0 flex-col gap-1.5 rounded-xl border border-white/[0.06] bg-zinc-950/40 p-4"
            >
              <h3 className="font-semibold break-words text-white">{era.name}</h3>
              <p className="text-xs text-zinc-400">
                {manyTabs ? `${era.tab}, row ${era.line}` : `Row ${era.line}`}
                {span ? ` · ${span}` : ""}
              </p>
              {era.counts.length > 0 ? (
                <p className="text-sm break-words text-zinc-200">
                  {era.counts.map((c) => `${c.count.toLocaleString("en-US")} ${c.label}`).join(" · ")}
                </p>
              ) : null}
              {story ? (
                <p className="text-sm break-words text-zinc-400" title={era.description ?? undefined}>
                  {story}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Panel>
  );
}
