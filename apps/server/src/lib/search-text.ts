/** Lower-case, accent-free, punctuation-free text for search ('Beyoncé!' -> 'beyonce'). */
export function searchNormalize(s: string): string {
  return s
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** The words of a search text that the vocabulary keeps: 3+ characters, the trigram index's unit. */
export function searchWords(text: string): string[] {
  return [...new Set(text.split(" ").filter((w) => w.length >= 3))];
}
