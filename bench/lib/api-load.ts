// Load for `npm run bench:api`: autocannon driven from the orchestrator's process (which does nothing else while
// it runs; the server and the hello-world are other processes), requests chosen per request by a function, and
// the write scenarios' bookkeeping: which (member, song) state each acknowledged write left behind.
import autocannon from "autocannon";

export type Req = { method: "GET" | "PUT" | "DELETE"; path: string; headers?: Record<string, string>; body?: string };

export type LoadResult = {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  /** Non-2xx answers, socket errors and timeouts. */
  errors: number;
  statuses: Record<string, number>;
  total: number;
  /** Distinct paths requested. */
  distinct: number;
};

type Ctx = { tag?: unknown };

/** Run autocannon against `base` with each request made by `next`; `done` hears every answer. */
export async function load(
  base: string,
  opts: { connections: number; seconds: number },
  next: (ctx: Ctx) => Req,
  done?: (status: number, ctx: Ctx) => void,
): Promise<LoadResult> {
  const statuses: Record<string, number> = {};
  const paths = new Set<string>();
  const result = await autocannon({
    url: base,
    connections: opts.connections,
    duration: opts.seconds,
    timeout: 10,
    requests: [
      {
        setupRequest: (req: autocannon.Request, ctx: Ctx) => {
          const r = next(ctx);
          paths.add(r.path);
          const headers: Record<string, string> = { ...(r.headers ?? {}) };
          if (r.body !== undefined) headers["content-type"] = "application/json";
          return { ...req, method: r.method, path: r.path, headers, body: r.body ?? "" };
        },
        onResponse: (status: number, _body: string, ctx: Ctx) => {
          statuses[status] = (statuses[status] ?? 0) + 1;
          done?.(status, ctx);
        },
      },
    ],
  } as unknown as autocannon.Options);
  const ok = result["2xx"];
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok,
    errors: result.non2xx + result.errors + result.timeouts,
    statuses,
    total: result.requests.total,
    distinct: paths.size,
  };
}

/** Cycle through a list, one item per request. */
export function cycle<T>(items: T[]): () => T {
  let i = 0;
  if (items.length === 0) throw new Error("nothing to request");
  return () => items[i++ % items.length] as T;
}

/** One (member, song) pair of a write scenario and what the database must hold for it. */
export type Pair = {
  session: number;
  userId: string;
  songId: string;
  /** Favourite: 1 = liked, 0 = not. Vote: 1 = up, 0 = none. As left by the last acknowledged write. */
  state: number;
  /** A write is on its way (never two at once on one pair). */
  inFlight: boolean;
  /** A write went unanswered (run ended, timeout) or failed: its effect may or may not be stored. */
  maybe?: number;
  acknowledged: number;
};

/**
 * Toggle writes over `pairs` in turn (each request a different pair; a pair whose write is in flight or whose
 * outcome is unknown is skipped). `build` turns (pair, wanted state) into the request.
 */
export function toggles(pairs: Pair[], cookies: string[], build: (pair: Pair, want: number, cookie: string) => Req) {
  let k = 0;
  let acknowledged = 0;
  let sent = 0;
  return {
    next(ctx: Ctx): Req {
      for (let tries = 0; tries < pairs.length; tries++) {
        const pair = pairs[k++ % pairs.length] as Pair;
        if (pair.inFlight || pair.maybe !== undefined) continue;
        pair.inFlight = true;
        const want = pair.state ? 0 : 1;
        ctx.tag = { pair, want };
        sent++;
        return build(pair, want, cookies[pair.session] ?? "");
      }
      throw new Error("every pair is busy: more connections than pairs");
    },
    done(status: number, ctx: Ctx): void {
      const { pair, want } = ctx.tag as { pair: Pair; want: number };
      pair.inFlight = false;
      if (status >= 200 && status < 300) {
        pair.state = want;
        pair.acknowledged++;
        acknowledged++;
      } else pair.maybe = want;
    },
    /** After the run: writes still in flight may or may not have landed. */
    finish(): { sent: number; acknowledged: number; unanswered: number } {
      let unanswered = 0;
      for (const p of pairs)
        if (p.inFlight) {
          p.inFlight = false;
          p.maybe = p.state ? 0 : 1;
          unanswered++;
        }
      return { sent, acknowledged, unanswered };
    },
  };
}
