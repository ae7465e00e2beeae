// Relevance over HTTP: each query asked once of GET /api/search and GET /api/search/suggest as a visitor, and
// where the song it is after ranks among the songs answered. The engine behind the API is not looked at.
import { KIND_LABELS, QUERY_KINDS, type Query, type QueryKind } from "./search-queries.js";

export const ENDPOINTS = ["search", "suggest"] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

const PATHS: Record<Endpoint, string> = { search: "/api/search?q=", suggest: "/api/search/suggest?q=" };

type SongRef = { id: string; title: string; artists: { name: string }[] };

/** One query's answer on one endpoint: the 1-based rank of the first accepted song (0: not among those answered). */
export type Answer = { rank: number; ms: number; status: number; top: string[] };

export type Outcome = { query: Query; answers: Partial<Record<Endpoint, Answer>> };

/** Whether the endpoint exists on this server (the suggestions came later than search). */
export async function endpointAvailable(base: string, endpoint: Endpoint): Promise<boolean> {
  const res = await fetch(`${base}${PATHS[endpoint]}love`);
  await res.arrayBuffer();
  return res.status !== 404;
}

async function ask(base: string, endpoint: Endpoint, query: Query): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${base}${PATHS[endpoint]}${encodeURIComponent(query.q)}`);
  let songs: SongRef[] = [];
  if (res.ok) songs = ((await res.json()) as { songs?: SongRef[] }).songs ?? [];
  else await res.arrayBuffer();
  const ms = performance.now() - started;
  const accepted = new Set(query.accepted);
  const rank = songs.findIndex((s) => accepted.has(s.id)) + 1;
  const top = songs.slice(0, 5).map((s) => `${s.title} — ${s.artists.map((a) => a.name).join(", ")}`);
  return { rank, ms, status: res.status, top };
}

/** Ask every query once per endpoint, `parallel` at a time; a progress line on stderr. */
export async function askAll(
  base: string,
  queries: Query[],
  endpoints: readonly Endpoint[],
  parallel = 4,
): Promise<Outcome[]> {
  const out: Outcome[] = queries.map((query) => ({ query, answers: {} }));
  const jobs = out.flatMap((o) => endpoints.map((e) => [o, e] as const));
  let next = 0;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < jobs.length) {
        const [o, e] = jobs[next++] as (typeof jobs)[number];
        o.answers[e] = await ask(base, e, o.query);
        if (++done % 50 === 0 || done === jobs.length)
          process.stderr.write(`\r  relevance: ${done}/${jobs.length} requests`);
      }
    }),
  );
  process.stderr.write(` in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return out;
}

/** Recall of one kind on one endpoint, percent; `medianMs` unloaded (a few requests at a time). */
export type Recall = { n: number; at1: number; at5: number; medianMs: number; errors: number };

/** The song each kind's recall@5 must reach (the targets), percent. */
export const RECALL_TARGETS: Partial<Record<QueryKind, number>> = { exact: 98, typo: 95, partial: 95 };

/** Recall@1 and @5 per kind and endpoint. */
export function summarize(outcomes: Outcome[]): Map<QueryKind, Partial<Record<Endpoint, Recall>>> {
  const out = new Map<QueryKind, Partial<Record<Endpoint, Recall>>>();
  for (const kind of QUERY_KINDS) {
    const mine = outcomes.filter((o) => o.query.kind === kind);
    if (mine.length === 0) continue;
    const row: Partial<Record<Endpoint, Recall>> = {};
    for (const e of ENDPOINTS) {
      const answers = mine.map((o) => o.answers[e]).filter((a): a is Answer => a !== undefined);
      if (answers.length === 0) continue;
      const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
      row[e] = {
        n: answers.length,
        at1: (100 * answers.filter((a) => a.rank === 1).length) / answers.length,
        at5: (100 * answers.filter((a) => a.rank >= 1 && a.rank <= 5).length) / answers.length,
        medianMs: ms[Math.floor(ms.length / 2)] ?? 0,
        errors: answers.filter((a) => a.status !== 200).length,
      };
    }
    out.set(kind, row);
  }
  return out;
}

/** A few queries per kind whose song was not in the top 5 of /api/search, with what came instead. */
export function missExamples(outcomes: Outcome[], perKind = 3): string[] {
  const lines: string[] = [];
  for (const kind of QUERY_KINDS) {
    const misses = outcomes.filter(
      (o) => o.query.kind === kind && o.answers.search && !(o.answers.search.rank >= 1 && o.answers.search.rank <= 5),
    );
    for (const o of misses.slice(0, perKind)) {
      const a = o.answers.search as Answer;
      const got =
        a.status !== 200 ? `HTTP ${a.status}` : a.top.length ? a.top.map((t) => `"${t}"`).join(", ") : "no songs";
      lines.push(
        `${KIND_LABELS[kind]}: \`${o.query.q}\` for "${o.query.label}" (rank ${a.rank || "> answered"}); top 5: ${got}`,
      );
    }
  }
  return lines;
}
