// The soak's load generator, a process of its own (`node --import tsx bench/lib/soak-load.ts <plan.json>`): starts
// requests at a fixed rate whatever the answers take (an open loop, so a slow server shows as latency, not as
// fewer requests), picks each from a fixed mix of reads and writes, times it to the last byte of the answer and
// writes every sample to the plan's `out` file. Writes keep the bookkeeping of bench:api (which state each
// acknowledged favourite and vote left), so the orchestrator can check them in the database afterwards.
import { readFileSync, writeFileSync } from "node:fs";
import { GENRES } from "@unheard/shared";
import { encodeWav } from "../../apps/server/src/lib/wav.js";
import { randomNotesTrack } from "../../packages/fingerprint/src/test-signals.js";
import type { Pair } from "./api-load.js";
import { createRandom } from "./random.js";
import type { PlanSong, SoakPlan, SoakResult } from "./soak-plan.js";

const plan = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as SoakPlan;
const rand = createRandom(plan.seed);
const pick = <T>(items: T[]): T => items[rand.int(items.length)] as T;
const origin = { origin: plan.base };
// More unanswered requests than this means the server has fallen far behind: skip rather than pile up sockets.
const MAX_IN_FLIGHT = Math.max(64, plan.rate * 10);
const TIMEOUT_MS = 30_000;

type Request = { kind: string; path: string; init?: RequestInit; done?: (status: number) => void };

const songs: PlanSong[] = [...plan.songs];
const withAudio = songs.filter((s) => s.audioUrl && s.audioSize > 0);
const artistIds = [...new Set(songs.flatMap((s) => s.artistIds))];
const uploads: string[] = [];

/** Toggle pairs: every (member, song) the members may vote on / favourite, each holding its last known state. */
function pairs(): Pair[] {
  const out: Pair[] = [];
  plan.members.forEach((m, session) => {
    for (const s of songs)
      if (s.submittedBy !== m.id)
        out.push({ session, userId: m.id, songId: s.id, state: 0, inFlight: false, acknowledged: 0 });
  });
  // Shuffled, so consecutive writes land on different songs and members.
  for (let i = out.length - 1; i > 0; i--) {
    const j = rand.int(i + 1);
    [out[i], out[j]] = [out[j] as Pair, out[i] as Pair];
  }
  return out;
}
const favorites = pairs();
const votes = pairs();
const reportable = pairs().map((p) => ({ session: p.session, songId: p.songId }));

/** The next free pair of `list` (none in flight, no unknown outcome), or undefined. */
function freePair(list: Pair[], cursor: { i: number }): Pair | undefined {
  for (let tries = 0; tries < list.length; tries++) {
    const p = list[cursor.i++ % list.length] as Pair;
    if (!p.inFlight && p.maybe === undefined) return p;
  }
  return undefined;
}

/** Record the outcome of a toggle write on its pair. */
function settle(p: Pair, want: number, status: number): void {
  p.inFlight = false;
  if (status >= 200 && status < 300) {
    p.state = want;
    p.acknowledged++;
  } else p.maybe = want;
}

const favCursor = { i: 0 };
const voteCursor = { i: 0 };
let reportCursor = 0;
let feedCursor: string | null = null;

const member = (session: number) => plan.members[session] ?? plan.uploader;
const json = (body: unknown, cookie: string, method = "PUT"): RequestInit => ({
  method,
  headers: { cookie, "content-type": "application/json", ...origin },
  body: JSON.stringify(body),
});

/** Flips a free (member, song) pair's vote or favourite; `settle` records what the server acknowledged. */
function toggle(
  pairs: Pair[],
  cursor: { i: number },
  kind: "vote" | "favorite",
  init: (want: 0 | 1, cookie: string) => RequestInit,
): () => Request | undefined {
  return () => {
    const p = freePair(pairs, cursor);
    if (!p) return undefined;
    p.inFlight = true;
    const want = p.state ? 0 : 1;
    return {
      kind,
      path: `/api/songs/${p.songId}/${kind}`,
      init: init(want, member(p.session).cookie),
      done: (status) => settle(p, want, status),
    };
  };
}

/** The request mix: [weight, maker]; a maker may return undefined (nothing free), then a read goes instead. */
const MIX: [number, () => Request | undefined][] = [
  [8, () => ({ kind: "feed", path: "/api/songs?feed=trending" })],
  [6, () => ({ kind: "feed", path: "/api/songs?feed=newest" })],
  [3, () => ({ kind: "feed", path: `/api/songs?feed=trending&genre=${encodeURIComponent(pick([...GENRES]))}` })],
  [
    3,
    () => ({
      kind: "feed",
      path: feedCursor ? `/api/songs?feed=newest&cursor=${encodeURIComponent(feedCursor)}` : "/api/songs?feed=newest",
    }),
  ],
  [12, () => ({ kind: "song", path: `/api/songs/${pick(songs).id}` })],
  [
    6,
    () => ({
      kind: "song",
      path: `/api/songs/${pick(songs).id}`,
      init: { headers: { cookie: pick(plan.members).cookie } },
    }),
  ],
  [3, () => ({ kind: "page", path: `/song/${pick(songs).id}` })],
  [10, () => ({ kind: "search", path: `/api/search?q=${encodeURIComponent(pick(plan.queries))}` })],
  [
    14,
    () => {
      const s = pick(withAudio);
      const len = Math.min(65_536, s.audioSize);
      const start = rand.int(Math.max(1, s.audioSize - len));
      return {
        kind: "audio",
        path: s.audioUrl ?? "",
        init: { headers: { range: `bytes=${start}-${start + len - 1}` } },
      };
    },
  ],
  [2, () => ({ kind: "artist", path: `/api/artists/${pick(artistIds)}` })],
  [1, () => ({ kind: "artist", path: `/api/artists/${pick(artistIds)}/songs` })],
  [
    3,
    () => ({
      kind: "member",
      path: "/api/notifications?limit=20",
      init: { headers: { cookie: pick(plan.members).cookie } },
    }),
  ],
  [2, () => ({ kind: "member", path: "/api/me", init: { headers: { cookie: pick(plan.members).cookie } } })],
  [10, toggle(votes, voteCursor, "vote", (want, cookie) => json({ value: want ? "up" : "none" }, cookie))],
  [
    10,
    toggle(favorites, favCursor, "favorite", (want, cookie) => ({
      method: want ? "PUT" : "DELETE",
      headers: { cookie, ...origin },
    })),
  ],
  [
    2,
    () => {
      // Each (member, song) reports once: a second open report would be a 409 by design.
      const r = reportable[reportCursor++];
      if (!r) return undefined;
      return {
        kind: "report",
        path: `/api/songs/${r.songId}/reports`,
        init: json({ reason: "other", details: `soak ${reportCursor}` }, member(r.session).cookie, "POST"),
      };
    },
  ],
  [
    0.5,
    () => {
      // A small, new WAV each time: the server refuses audio it already has.
      const wav = encodeWav(randomNotesTrack(2, 11025, rand.int(2 ** 31)), 11025);
      const form = new FormData();
      form.append("title", `Soak Upload ${uploads.length + 1} ${rand.int(1e9).toString(36)}`);
      form.append("artists", `Soak Artist ${rand.int(8)}`);
      form.append("genre", pick([...GENRES]));
      form.append("audio", new Blob([new Uint8Array(wav)], { type: "audio/wav" }), "soak.wav");
      return {
        kind: "upload",
        path: "/api/songs",
        init: { method: "POST", headers: { cookie: plan.uploader.cookie, ...origin }, body: form },
      };
    },
  ],
];
const totalWeight = MIX.reduce((a, [w]) => a + w, 0);

function nextRequest(): Request {
  let r = rand.next() * totalWeight;
  for (const [w, make] of MIX) {
    r -= w;
    if (r < 0) return make() ?? { kind: "song", path: `/api/songs/${pick(songs).id}` };
  }
  return { kind: "feed", path: "/api/songs?feed=trending" };
}

const kinds: string[] = [];
const kindIndex = (k: string) => {
  const i = kinds.indexOf(k);
  return i >= 0 ? i : kinds.push(k) - 1;
};
const samples: SoakResult["samples"] = [];
const errors: string[] = [];
let inFlight = 0;
let skipped = 0;
let sent = 0;

async function send(req: Request, t0: number): Promise<void> {
  const sentAt = performance.now();
  let status = 0;
  try {
    const res = await fetch(`${plan.base}${req.path}`, { ...req.init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    status = res.status;
    const body = await res.arrayBuffer();
    if (req.kind === "upload" && status === 201) {
      const song = JSON.parse(Buffer.from(body).toString("utf8")) as { id: string };
      uploads.push(song.id);
      // New songs join what the readers read (not the write pairs: the bookkeeping stays as planned).
      songs.push({ id: song.id, submittedBy: plan.uploader.id, audioUrl: null, audioSize: 0, artistIds: [] });
    }
    if (req.path.startsWith("/api/songs?feed=newest") && status === 200 && rand.next() < 0.5) {
      const page = JSON.parse(Buffer.from(body).toString("utf8")) as { nextCursor: string | null };
      feedCursor = page.nextCursor;
    }
    if (status >= 500 && errors.length < 10) errors.push(`${req.kind} ${req.path}: ${status} ${Buffer.from(body)}`);
  } catch (err) {
    if (errors.length < 10) errors.push(`${req.kind} ${req.path}: ${(err as Error).message}`);
  } finally {
    inFlight--;
    req.done?.(status);
    samples.push([
      Math.round(sentAt - t0),
      Math.round((performance.now() - sentAt) * 10) / 10,
      status,
      kindIndex(req.kind),
    ]);
  }
}

/** Hold `n` live event streams open until `signal` aborts; count what arrives. */
function holdStreams(n: number, signal: AbortSignal): { events: () => number; closed: Promise<unknown> } {
  let events = 0;
  const closed = Promise.allSettled(
    Array.from({ length: n }, async (_, i) => {
      const res = await fetch(`${plan.base}/api/events`, {
        headers: { cookie: member(i % plan.members.length).cookie, accept: "text/event-stream" },
        signal,
      });
      const reader = res.body?.getReader();
      while (reader) {
        const { done, value } = await reader.read();
        if (done) break;
        events += (
          Buffer.from(value)
            .toString("utf8")
            .match(/^data:/gm) ?? []
        ).length;
      }
    }),
  );
  return { events: () => events, closed };
}

async function run(): Promise<void> {
  const stop = new AbortController();
  const streams = holdStreams(plan.streams, stop.signal);
  const t0 = performance.now();
  const interval = 1000 / plan.rate;
  const total = Math.round(plan.seconds * plan.rate);
  const pending = new Set<Promise<void>>();
  for (let i = 0; i < total; i++) {
    // Each request has its slot on the clock: a late timer sends the ones it missed at once (no drift).
    const wait = t0 + i * interval - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    if (inFlight >= MAX_IN_FLIGHT) {
      skipped++;
      continue;
    }
    inFlight++;
    sent++;
    const p = send(nextRequest(), t0);
    pending.add(p);
    void p.finally(() => pending.delete(p));
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - t0) / 1000;
  stop.abort();
  await streams.closed;
  // Writes that never got an answer may or may not have landed.
  for (const p of [...favorites, ...votes])
    if (p.inFlight) {
      p.inFlight = false;
      p.maybe = p.state ? 0 : 1;
    }
  const touched = (list: Pair[]) => list.filter((p) => p.acknowledged > 0 || p.maybe !== undefined);
  const result: SoakResult = {
    samples,
    kinds,
    skipped,
    elapsed,
    sent,
    favorites: touched(favorites),
    votes: touched(votes),
    uploads,
    events: streams.events(),
    errors,
  };
  writeFileSync(plan.out, JSON.stringify(result));
}

await run();
