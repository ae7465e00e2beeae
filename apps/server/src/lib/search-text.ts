/** Lower-case, accent-free, punctuation-free text for search ('Beyoncé!' -> 'beyonce'). */
export function searchNormalize(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** pg_trgm's trigrams: each word padded with two spaces before and one after. */
export function trigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of text.split(" ")) {
    if (!word) continue;
    const padded = `  ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  }
  return out;
}

// Ranking compares one query with hundreds of texts: its trigrams are worked out once.
let lastQuery = "";
let lastQueryTrigrams = new Set<string>();
function queryTrigrams(text: string): Set<string> {
  if (text !== lastQuery) {
    lastQuery = text;
    lastQueryTrigrams = trigrams(text);
  }
  return lastQueryTrigrams;
}

/** pg_trgm's similarity: shared trigrams over all trigrams of both. */
export function similarity(a: string, b: string): number {
  const ta = queryTrigrams(a);
  const tb = trigrams(b);
  if (ta.size === 0 || tb.size === 0) return 0;
  let shared = 0;
  for (const t of ta) if (tb.has(t)) shared++;
  return shared / (ta.size + tb.size - shared);
}

/** Best similarity of the query to any run of as many consecutive words in the text. */
function windowSimilarity(query: string, text: string): number {
  const words = text.split(" ").filter(Boolean);
  const span = Math.max(1, query.split(" ").length);
  let best = similarity(query, text);
  for (let i = 0; i < words.length; i++) {
    for (let w = Math.max(1, span - 1); w <= span + 1; w++) {
      if (i + w > words.length) break;
      best = Math.max(best, similarity(query, words.slice(i, i + w).join(" ")));
    }
  }
  return best;
}

/** Below this a fuzzy match is noise. */
export const FUZZY_THRESHOLD = 0.3;

/**
 * Rank a song for a query: exact title > title prefix > exact or prefix artist > substring > fuzzy (0..1).
 * Returns 0 for no match. Normalised inputs only.
 */
export function searchScore(query: string, title: string, artists: string[]): number {
  if (!query) return 0;
  if (title === query) return 5;
  if (title.startsWith(query)) return 4;
  if (artists.some((a) => a === query)) return 3.5;
  if (artists.some((a) => a.startsWith(query))) return 3;
  if (title.includes(query) || artists.some((a) => a.includes(query))) return 2;
  const fuzzy = Math.max(windowSimilarity(query, title), ...artists.map((a) => windowSimilarity(query, a)));
  return fuzzy >= FUZZY_THRESHOLD ? fuzzy : 0;
}

/** The words of a search text that the vocabulary keeps: 3+ characters, the trigram index's unit. */
export function searchWords(text: string): string[] {
  return [...new Set(text.split(" ").filter((w) => w.length >= 3))];
}
