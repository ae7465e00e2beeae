// Words and names for the load benchmark's catalogue: song titles drawn from a skewed vocabulary (common words
// often, a long tail of rare ones, like real titles), artist and member names that look like people's.
import type { Random } from "./random.js";

const COMMON = (
  "love night heart time baby life world girl fire dream light way dance rain summer money city home feel " +
  "gone again body soul moon star sky blue gold golden wild young forever tonight alone lost run free high " +
  "low hold back down fall rise cold hot sweet bad good new old last first real slow fast crazy lonely " +
  "broken dark bright shine glow neon echo ghost shadow angel devil heaven hell paradise ocean river sea " +
  "wave storm thunder lightning rainbow sunset sunrise midnight morning evening winter spring autumn " +
  "highway road street car ride drive fly wings bird wolf tiger lion snake rose flower garden desert " +
  "island mountain valley fever sugar honey candy cherry diamond crystal silver velvet silk glass mirror " +
  "window door house room bed party club drink smoke pills kiss touch tears smile eyes lips hands mind " +
  "head blood bones skin name story song music rhythm beat bass drum radio video phone signal circuit " +
  "electric static motion gravity energy power magic secret truth lies promise memory memories yesterday " +
  "tomorrow today always never nothing everything somebody nobody everybody together apart between " +
  "outside inside under over above below through without within around away closer further higher " +
  "deeper louder better bigger stronger faster harder colder warmer lighter darker rebel outlaw hustle " +
  "grind flex drip wave vibe mood season chapter letter message island empire kingdom throne crown king " +
  "queen prince princess hero villain savage legend icon star rockstar superstar satellite rocket planet " +
  "galaxy universe cosmic stellar lunar solar orbit horizon frontier borderline runaway getaway hideaway " +
  "daydream nightmare lullaby serenade anthem ballad symphony melody harmony chorus"
).split(" ");

const SUFFIXES = ["(Demo)", "(Remix)", "(Snippet)", "(Unreleased)", "(Original)", "Pt. 2", "(Live)", "(v2)"];

const FIRST_NAMES = (
  "james mary john lisa mike anna chris sara david emma alex nina ryan zoe kevin maya jason lily tyler " +
  "chloe marcus ava andre mia jordan leah derek ella travis ivy dante ruby malik nora omar iris felix " +
  "luna hugo jade oscar vera milo cleo theo nadia enzo rosa kai elena leo sofia ezra hana jonah tessa " +
  "isaac yara cole freya reid dahlia sean amara drew celine blake noor miles esme"
).split(" ");
const LAST_NAMES = (
  "smith jones brown lee walker young king wright hill scott green baker adams nelson carter mitchell " +
  "roberts turner phillips campbell parker evans edwards collins stewart morris rogers reed cook morgan " +
  "bell murphy bailey rivera cooper richardson cox howard ward torres peterson gray ramirez watson brooks " +
  "kelly sanders price bennett wood barnes ross henderson coleman jenkins perry powell long patterson " +
  "hughes flores washington butler simmons foster gonzales bryant alexander russell griffin diaz hayes"
).split(" ");
const PREFIXES = ["lil", "young", "dj", "mc", "big", "saint", "king", "baby", "yung", "the"];
const SYLLABLES = (
  "ka ri no ve lo ma zu ta mi ra xo ne sa vi lu do re fa ki zo ya ny el an or is um ba ce di fo gu " +
  "ha jo ko ly mu na pi qu ro si te va wo xa ze bra cre dro fli gra kro pla pre sto tri vre"
).split(" ");

/** Cumulative weights of a Zipf distribution over n items (item 0 the most frequent). */
export function zipf(n: number, s = 1.05): Float64Array {
  const cum = new Float64Array(n);
  let total = 0;
  for (let i = 0; i < n; i++) {
    total += 1 / (i + 1) ** s;
    cum[i] = total;
  }
  for (let i = 0; i < n; i++) cum[i] = (cum[i] as number) / total;
  return cum;
}

/** An index drawn from cumulative weights. */
export function drawFrom(cum: Float64Array, r: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cum[mid] as number) < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const cap = (w: string) => (w ? `${w[0]?.toUpperCase()}${w.slice(1)}` : w);

/** A made-up word of 2-4 syllables ("kavro", "zenthi"): the rare tail of titles and stage names. */
export function inventedWord(rand: Random): string {
  const n = 2 + rand.int(3);
  let w = "";
  for (let i = 0; i < n; i++) w += SYLLABLES[rand.int(SYLLABLES.length)];
  return w;
}

/** Title vocabulary: the common words, then invented ones (the tail grows with the catalogue). */
export function titleVocabulary(rand: Random, tail: number): { words: string[]; cum: Float64Array } {
  const seen = new Set(COMMON);
  const words = [...COMMON];
  while (words.length < COMMON.length + tail) {
    const w = inventedWord(rand);
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  // s = 0.85: the most common word is in about 4% of title words ("love" in song titles), not 12% as in prose.
  return { words, cum: zipf(words.length, 0.85) };
}

/** A song title of 1-4 words, now and then with a leak-style suffix. */
export function songTitle(rand: Random, vocab: { words: string[]; cum: Float64Array }): string {
  const roll = rand.next();
  const n = roll < 0.3 ? 1 : roll < 0.75 ? 2 : roll < 0.93 ? 3 : 4;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(cap(vocab.words[drawFrom(vocab.cum, rand.next())] ?? "love"));
  const title = parts.join(" ");
  return rand.next() < 0.12 ? `${title} ${SUFFIXES[rand.int(SUFFIXES.length)]}` : title;
}

/** An artist name: "Maya Brooks", "Lil Kavro", "Zenthi", "The Velvet Wolves". */
export function artistName(rand: Random, vocab: { words: string[] }): string {
  const roll = rand.next();
  if (roll < 0.4)
    return `${cap(FIRST_NAMES[rand.int(FIRST_NAMES.length)] ?? "")} ${cap(LAST_NAMES[rand.int(LAST_NAMES.length)] ?? "")}`;
  if (roll < 0.65) {
    const p = PREFIXES[rand.int(PREFIXES.length)] ?? "lil";
    return `${p === "dj" || p === "mc" ? p.toUpperCase() : cap(p)} ${cap(inventedWord(rand))}`;
  }
  if (roll < 0.9) return cap(inventedWord(rand));
  const noun = vocab.words[rand.int(Math.min(vocab.words.length, 400))] ?? "wolf";
  return `The ${cap(inventedWord(rand))} ${cap(noun)}s`;
}

/** A member's handle: "kavro_92", "mayabrooks". */
export function memberHandle(rand: Random): string {
  const base =
    rand.next() < 0.5
      ? `${FIRST_NAMES[rand.int(FIRST_NAMES.length)]}${LAST_NAMES[rand.int(LAST_NAMES.length)]}`
      : inventedWord(rand);
  return rand.next() < 0.7 ? `${base}_${rand.int(1000)}` : base;
}
