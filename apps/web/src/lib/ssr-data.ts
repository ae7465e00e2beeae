import type { DehydratedState } from "@tanstack/react-query";

/** The id of the JSON block holding the query data a server-rendered page was rendered from (entry-server.tsx). */
export const QUERIES_ELEMENT_ID = "unheard-queries";

/** The server-rendered page's query data, or undefined when the page was not rendered on the server. */
export function renderedQueries(): DehydratedState | undefined {
  const text = document.getElementById(QUERIES_ELEMENT_ID)?.textContent;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as DehydratedState;
  } catch {
    return undefined;
  }
}
