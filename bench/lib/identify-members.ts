// The identify load of bench:identify-load, run as a process of its own: `node --import tsx
// bench/lib/identify-members.ts CONFIG.json OUT.json`. Each member sends clips to POST /api/identify/pcm in a loop:
// all of them at once at the start, then the next clip after a pause to read the answer; a 503 (the audio pool's
// queue is full) or a 429 is waited out for its Retry-After, as the page tells a member to. Or one member alone,
// one clip at a time (the baseline). Writes every request's figures to OUT.json.
import { readFileSync, writeFileSync } from "node:fs";
import { parseServerTiming, type ServerTiming } from "./scale-load.js";

/** A clip on disk: 16-bit mono PCM at `rate`, and the right answer. */
export type ClipFile = {
  file: string;
  rate: number;
  seconds: number;
  kind: string;
  /** The song it was cut from (null: unknown music). */
  songId: string | null;
  startSeconds: number;
};

/** What the orchestrator hands over. */
export type MembersConfig = {
  base: string;
  /** One session cookie per member. */
  cookies: string[];
  clips: ClipFile[];
  /** "together": every member in a loop for `seconds`; "alone": the first member, each clip once, one at a time. */
  mode: "together" | "alone";
  seconds: number;
  /** Pause after an answer before the member's next clip (ms). */
  thinkMs: number;
  toleranceSeconds: number;
};

/** One request as its member saw it. */
export type IdentifyRecord = {
  member: number;
  kind: string;
  seconds: number;
  /** When it was sent, ms from the load's start. */
  at: number;
  status: number;
  totalMs: number;
  retryAfter: number | null;
  timing: ServerTiming | null;
  /** 200 answers: the right song near the right offset, another song or offset, nothing. */
  outcome: "found" | "wrong" | "none" | null;
  /** Of a wrong answer: the right song at another offset (s off), or null (another song). */
  offsetError: number | null;
  /** The clip's index in the pool. */
  clip: number;
};

type Answer = { match: { song: { id: string }; offsetSeconds: number } | null };

async function send(config: MembersConfig, member: number, index: number, start: number): Promise<IdentifyRecord> {
  const clip = config.clips[index] as ClipFile;
  const body = readFileSync(clip.file);
  const at = performance.now() - start;
  const t0 = performance.now();
  const res = await fetch(`${config.base}/api/identify/pcm?sampleRate=${clip.rate}`, {
    method: "POST",
    headers: {
      cookie: config.cookies[member] as string,
      origin: config.base,
      "content-type": "application/octet-stream",
    },
    body,
  });
  const text = await res.text();
  const totalMs = performance.now() - t0;
  const retry = res.headers.get("retry-after");
  let outcome: IdentifyRecord["outcome"] = null;
  let offsetError: number | null = null;
  if (res.status === 200) {
    const m = (JSON.parse(text) as Answer).match;
    if (m && m.song.id === clip.songId) offsetError = m.offsetSeconds - clip.startSeconds;
    outcome =
      m === null
        ? "none"
        : m.song.id === clip.songId && Math.abs(m.offsetSeconds - clip.startSeconds) <= config.toleranceSeconds
          ? "found"
          : "wrong";
  } else if (res.status !== 503 && res.status !== 429) {
    throw new Error(`identify answered ${res.status}: ${text.slice(0, 300)}`);
  }
  return {
    member,
    kind: clip.kind,
    seconds: clip.seconds,
    at,
    status: res.status,
    totalMs,
    retryAfter: retry === null ? null : Number(retry),
    timing: res.status === 200 ? parseServerTiming(res.headers.get("server-timing")) : null,
    outcome,
    offsetError: outcome === "wrong" ? offsetError : null,
    clip: index,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run the identify load of `config`. */
export async function identifyLoad(config: MembersConfig): Promise<IdentifyRecord[]> {
  const out: IdentifyRecord[] = [];
  const start = performance.now();
  if (config.mode === "alone") {
    for (let i = 0; i < config.clips.length; i++) out.push(await send(config, 0, i, start));
    return out;
  }
  const end = start + config.seconds * 1000;
  const n = config.cookies.length;
  await Promise.all(
    config.cookies.map(async (_, member) => {
      // Members start at different clips of the pool, so kinds and lengths mix at every moment.
      let next = Math.floor((member * config.clips.length) / n);
      while (performance.now() < end) {
        const r = await send(config, member, next++ % config.clips.length, start);
        out.push(r);
        const wait = r.status === 200 ? config.thinkMs : 1000 * (r.retryAfter ?? 30);
        if (performance.now() + wait >= end) break;
        await sleep(wait);
      }
    }),
  );
  return out.sort((a, b) => a.at - b.at);
}

const [configFile, outFile] = process.argv.slice(2);
if (configFile && outFile) {
  const config = JSON.parse(readFileSync(configFile, "utf8")) as MembersConfig;
  writeFileSync(outFile, JSON.stringify(await identifyLoad(config)));
}
