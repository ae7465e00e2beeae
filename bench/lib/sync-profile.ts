// Where a phase of bench:sync spent the server's time: the server's --cpu-prof profiles (one per thread: the main
// thread and the audio pool's workers) cut to the windows the bench timed. V8 stamps samples on the monotonic clock
// process.hrtime reads, so a window taken here in microseconds selects the same moments in the server's profiles.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** Now on the monotonic clock, in microseconds (the clock of a CPU profile's timestamps). */
export const monoMicros = () => Number(process.hrtime.bigint() / 1000n);

/** Time windows of one labelled phase. */
export type Windows = Map<string, [number, number][]>;

type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

/** A phase's self time per function, per thread, within its windows. */
export type PhaseProfile = {
  phase: string;
  windowMs: number;
  threads: {
    thread: string;
    busyMs: number;
    /** Self time: where the thread was when sampled. */
    top: { fn: string; ms: number }[];
    /** Inclusive time of the server's own functions (named ones, anywhere on the stack). */
    app: { fn: string; ms: number }[];
  }[];
};

const frameKey = (frame: Node["callFrame"]) => {
  const where = frame.url
    ? ` ${frame.url.replace(/\?.*$/, "").split("/").slice(-2).join("/")}:${frame.lineNumber + 1}`
    : "";
  return `${frame.functionName || "(anonymous)"}${where}`;
};
const isApp = (frame: Node["callFrame"]) => frame.functionName !== "" && /apps\/server\/(src|dist)\//.test(frame.url);

const IDLE = new Set(["(idle)", "(program)"]);

/** Each phase's busiest functions on each thread, from the profiles in `dir`. */
export function profileByPhase(dir: string, windows: Windows, top = 8): PhaseProfile[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .sort();
  const profiles = files.map((f, i) => ({
    thread: i === 0 ? "main thread" : `worker ${i}`,
    profile: JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Profile,
  }));
  const out: PhaseProfile[] = [];
  for (const [phase, spans] of windows) {
    const windowMs = spans.reduce((n, [a, b]) => n + (b - a), 0) / 1000;
    const threads: PhaseProfile["threads"] = [];
    for (const { thread, profile } of profiles) {
      const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
      const parent = new Map<number, number>();
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
      const self = new Map<string, number>();
      const inclusive = new Map<string, number>();
      // Each sample counts as the usual interval: a thread the OS left waiting shows one long gap, which would
      // otherwise be charged to whatever function happened to be on the stack.
      const deltas = [...profile.timeDeltas].sort((a, b) => a - b);
      const interval = deltas[Math.floor(deltas.length / 2)] ?? 1000;
      let t = profile.startTime;
      let busy = 0;
      for (let i = 0; i < profile.samples.length; i++) {
        const delta = profile.timeDeltas[i] ?? 0;
        t += delta;
        if (!spans.some(([a, b]) => t >= a && t <= b)) continue;
        const id = profile.samples[i] ?? -1;
        const frame = nodes.get(id)?.callFrame;
        if (!frame || IDLE.has(frame.functionName)) continue;
        // A sample stands for the time since the previous one.
        const key = frameKey(frame);
        self.set(key, (self.get(key) ?? 0) + interval);
        busy += interval;
        const seen = new Set<string>();
        for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
          const f = nodes.get(at)?.callFrame;
          if (!f || !isApp(f)) continue;
          const k = frameKey(f);
          if (seen.has(k)) continue;
          seen.add(k);
          inclusive.set(k, (inclusive.get(k) ?? 0) + interval);
        }
      }
      if (busy === 0) continue;
      threads.push({
        thread,
        busyMs: busy / 1000,
        top: [...self]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([fn, us]) => ({ fn, ms: us / 1000 })),
        app: [...inclusive]
          .sort((a, b) => b[1] - a[1])
          .slice(0, top)
          .map(([fn, us]) => ({ fn, ms: us / 1000 })),
      });
    }
    out.push({ phase, windowMs, threads });
  }
  return out;
}

/** The phases' profiles as Markdown lines. */
export function profileLines(phases: PhaseProfile[]): string[] {
  return phases.flatMap((p) => [
    `- **${p.phase}** (${p.windowMs.toFixed(0)} ms timed in all):`,
    ...p.threads.flatMap((t) => [
      `  - ${t.thread}: busy ${t.busyMs.toFixed(0)} ms. Self: ${t.top.map((f) => `\`${f.fn}\` ${f.ms.toFixed(0)}`).join(", ")}`,
      ...(t.app.length
        ? [`    - server functions, inclusive: ${t.app.map((f) => `\`${f.fn}\` ${f.ms.toFixed(0)}`).join(", ")}`]
        : []),
    ]),
  ]);
}
