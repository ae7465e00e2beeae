/** Key for case- and width-insensitive comparison of names and titles ('Juice WRLD ' = 'juice wrld'). */
export function nameKey(s: string): string {
  return s.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
}
