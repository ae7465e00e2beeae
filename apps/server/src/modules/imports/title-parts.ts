import { SONG_TAG_LABELS, SONG_TAGS, type SongTag } from "@unheard/shared";
import { type Cleaned, isBlank } from "./cell-words.js";
import { headerWords } from "./header-mapping.js";

// What a tracker writes into its name and artist cells besides the names: features, producers, references,
// aliases, a version label and marks, and the tags the marks stand for.

// Every pattern below runs on whitespace already squeezed to single spaces, so no quantifier meets another over
// a run of spaces: a cell of "a" + 3,000 spaces + "b" backtracked cubically through `\s*(?:…|\s+x\s+)\s*`
// (25 s on one preview). Each split now does a fixed amount of work per position: linear in the cell.
const FEATURE_SPLIT = /[ \n](?:feat\.?|ft\.?|featuring)[ \n]/i;
const NAME_SPLIT = / ?(?:[,&/;+\n]| x ) ?/i;

/** A cell with each run of blanks (newlines aside: they separate names) made one space; linear time. */
function squeeze(raw: string): string {
  return raw.replace(/[^\S\n]+/g, " ");
}

/** Names in one cell: split on ",", "&", "/", ";", "+", a new line and " x "; blank and repeated names dropped. */
export function splitNames(raw: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const piece of squeeze(raw).split(NAME_SPLIT)) {
    const name = piece.normalize("NFKC").trim().replace(/\s+/g, " ");
    const key = name.toLowerCase();
    if (!name || isBlank(name) || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}

/** An artists cell: the names, and those after "feat." / "ft." as features. */
export function splitArtists(raw: string): { artists: string[]; features: string[] } {
  const [main = "", ...rest] = squeeze(raw).split(FEATURE_SPLIT);
  return { artists: splitNames(main), features: splitNames(rest.join(", ")) };
}

/** What a tracker's name cell holds besides the title. */
export type TitleParts = {
  title: string;
  features: string[];
  producers: string[];
  references: string[];
  aliases: string[];
  versionLabel: string | null;
  /** The marks found before or after the title ("⭐", "🏆"), in order, without their variation selectors. */
  marks: string[];
};

// An emoji with its modifiers and joined parts ("🗑️", "👨‍🎤"), as trackers put them before a title.
const MARK =
  /\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?)*/gu;

/** A mark as the legend keys it: variation selectors dropped ("🗑️" and "🗑" are one mark). */
export const markKey = (mark: string): string => mark.replace(/\uFE0F/g, "");

/**
 * A title with what trackers write into it taken out: "(feat. X)" and "(prod. Y)" as features and producers,
 * "(ref. X)" as reference credits, "(Alt: X)", "[aka X]" as aliases, "[V2]" as the version label, and the marks
 * (emoji) before or after it.
 */
export function splitTitle(raw: string): TitleParts {
  const features: string[] = [];
  const producers: string[] = [];
  const references: string[] = [];
  const aliases: string[] = [];
  let versionLabel: string | null = null;
  const marks: string[] = [];
  // Blanks squeezed first and names stopping at the next bracket: each position is tried in constant work and
  // each character read by one bracket at most (an unclosed "(feat." no longer rescans the rest of the cell).
  const title = raw
    .replace(/\s+/g, " ")
    .replace(MARK, (mark) => {
      marks.push(markKey(mark));
      return " ";
    })
    .replace(/ ?[([] ?(feat\.?|ft\.?|featuring|with) ([^()[\]]+)[)\]]/gi, (_all, _word, names: string) => {
      features.push(...splitNames(names));
      return "";
    })
    .replace(/ ?[([] ?prod(?:\.|uced)?(?: by)?\.? ([^()[\]]+)[)\]]/gi, (_all, names: string) => {
      producers.push(...splitNames(names));
      return "";
    })
    .replace(/ ?[([] ?ref(?:\.|erence)?(?: track)?(?: by)?[.:]? ([^()[\]]+)[)\]]/gi, (_all, names: string) => {
      references.push(...splitNames(names));
      return "";
    })
    .replace(
      / ?[([] ?(?:alt(?:ernate)?(?: titles?| names?)?[.:]|alt(?:ernate)? (?:titles?|names?)|a\.?k\.?a\.?:?|also known as:?) ([^()[\]]+)[)\]]/gi,
      (_all, names: string) => {
        aliases.push(...splitNames(names));
        return "";
      },
    )
    .replace(/ ?[([] ?(?:v|ver\.?|version) ?(\d{1,3}[a-z]?) ?[)\]]/gi, (all, n: string) => {
      if (versionLabel !== null) return all;
      versionLabel = `V${n.toUpperCase()}`;
      return "";
    })
    .normalize("NFKC")
    .trim()
    .replace(/\s+/g, " ");
  return { title, features, producers, references, aliases, versionLabel, marks };
}

/** Tags from a title's marks through a legend; marks the legend does not know are reported. */
export function tagsOf(marks: string[], legend: Readonly<Record<string, SongTag | "ignore">>): Cleaned<SongTag[]> {
  const tags: SongTag[] = [];
  const unknown: string[] = [];
  for (const mark of marks) {
    const tag = legend[mark] ?? legend[markKey(mark)];
    if (tag === undefined) unknown.push(mark);
    else if (tag !== "ignore" && !tags.includes(tag)) tags.push(tag);
  }
  const ordered = SONG_TAGS.filter((t) => tags.includes(t));
  if (unknown.length === 0) return { value: ordered };
  return { value: ordered, warning: `Mark ${unknown.join(" ")} is not in the legend: left out` };
}

/** A tags cell: tag names or labels ("Best of, Grail") or marks, comma-separated. */
export function parseTagsCell(raw: string, legend: Readonly<Record<string, SongTag | "ignore">>): Cleaned<SongTag[]> {
  if (isBlank(raw)) return { value: [] };
  const marks: string[] = [];
  const rest = raw.replace(MARK, (m) => {
    marks.push(markKey(m));
    return ",";
  });
  const fromMarks = tagsOf(marks, legend);
  const tags = new Set<SongTag>(fromMarks.value);
  const unknown: string[] = [];
  for (const piece of rest.split(/[,;/]/)) {
    const w = headerWords(piece);
    if (!w) continue;
    const tag = SONG_TAGS.find(
      (t) =>
        t === w.replace(/ /g, "_") ||
        headerWords(SONG_TAG_LABELS[t]) === w ||
        headerWords(SONG_TAG_LABELS[t]).split(" ")[0] === w,
    );
    if (tag) tags.add(tag);
    else unknown.push(piece.trim());
  }
  const value = SONG_TAGS.filter((t) => tags.has(t));
  const warnings = [
    fromMarks.warning,
    unknown.length > 0 ? `Unknown tag "${unknown.join(", ")}": left out` : undefined,
  ].filter(Boolean);
  return warnings.length > 0 ? { value, warning: warnings.join("; ") } : { value };
}
