/** The part of React Router's history state (`{ usr, key, idx }`) this file reads. */
type EntryState = { key?: unknown } | null;

/**
 * Give the tab's current history entry a key of its own when it has none: a freshly loaded document (an address
 * typed into the tab, a link from another site) has none, and React Router then calls its location "default".
 * <ScrollRestoration/> keeps positions per location key in sessionStorage, which outlives the document: every
 * document that starts without a key would take the position the tab's first page left under "default"
 * (issue 25). Run before the router reads the location. The key is kept in history.state, so a reload or a
 * back/forward to this entry from another document finds the same key and its position again.
 */
export function keyHistoryEntry(history: History = window.history): void {
  const state = history.state as EntryState;
  if (state && typeof state === "object" && typeof state.key === "string" && state.key !== "default") return;
  // Math.random, not crypto.randomUUID: the latter needs a secure context (plain http on a LAN address is not).
  const key = Math.random().toString(36).slice(2, 10);
  history.replaceState({ usr: null, ...(state ?? {}), key }, "");
}
