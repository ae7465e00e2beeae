// Markdown tables of bench:invariant.
import { INVARIANT_ENTRY_BYTES, type InvariantConfig, invariantKeySpace } from "@unheard/fingerprint";
import type { InvariantCondition } from "./invariant-clips.js";
import { type Outcome, outcomeKey, type RunResult } from "./invariant-run.js";
import type { SqliteLayout } from "./invariant-sqlite.js";
import type { Strategy } from "./invariant-strategies.js";
import { percentile } from "./report.js";

const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString("en") : "-");
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "-");
const ms = (v: number[], p: number) => (v.length ? percentile(v, p).toFixed(0) : "-");
const mb = (bytes: number) => (bytes / 1e6).toFixed(2);

/** Sum outcomes (e.g. over clip lengths or conditions). */
function merged(list: (Outcome | undefined)[]): Outcome | undefined {
  const present = list.filter((o): o is Outcome => o !== undefined);
  if (present.length === 0) return undefined;
  const out = structuredClone(present[0] as Outcome);
  for (const o of present.slice(1)) {
    for (const k of Object.keys(out) as (keyof Outcome)[]) {
      const a = out[k];
      const b = o[k];
      if (Array.isArray(a) && Array.isArray(b)) (a as unknown[]).push(...b);
      else if (typeof a === "number" && typeof b === "number") (out[k] as number) = a + b;
    }
  }
  return out;
}

/** The index: density, key space and bytes per hour, in memory and in SQLite. */
export function formatIndex(r: RunResult, config: InvariantConfig, sqlite: SqliteLayout[] | null): string {
  const { index } = r;
  const hours = index.seconds / 3600;
  const space = invariantKeySpace(config);
  const lines = [
    "| figure | value |",
    "|---|---:|",
    `| catalogue (real music) | ${index.tracks} tracks, ${hours.toFixed(2)} h |`,
    `| peaks per second | ${(index.peaks / index.seconds).toFixed(1)} |`,
    `| stored entries (triplet keys) per second | ${(index.entries / index.seconds).toFixed(1)} |`,
    `| entries | ${int(index.entries)} |`,
    `| key space | ${int(space)} (${Math.log2(space).toFixed(1)} bits); ${int(index.distinctKeys)} distinct keys used (${pct(index.distinctKeys, space)}) |`,
    `| mean rows per used key per catalogue hour | ${(index.entries / index.distinctKeys / hours).toFixed(2)} |`,
    `| entries at ${INVARIANT_ENTRY_BYTES} B per hour of audio | ${mb((index.entries * INVARIANT_ENTRY_BYTES) / hours)} MB |`,
    `| fingerprinting speed (CPU, decoded audio) | ${((index.seconds * 1000) / index.fingerprintCpuMs).toFixed(0)}x realtime |`,
  ];
  for (const t of sqlite ?? []) {
    const perRow = t.bytes / Math.max(1, t.rows);
    lines.push(
      t.name === "inv_count"
        ? `| SQLite ${t.description} | ${mb(t.bytes)} MB for ${int(t.rows)} keys (bounded by the key space, not by hours) |`
        : `| SQLite ${t.description} | ${mb(t.bytes / hours)} MB per hour (${perRow.toFixed(1)} B per row) |`,
    );
  }
  return lines.join("\n");
}

/** Accuracy and cost per condition and length on one catalogue under one strategy. */
export function formatAccuracy(
  r: RunResult,
  catalogue: number,
  strategy: string,
  conditions: InvariantCondition[],
  lengths: number[],
): string {
  const lines = [
    "| condition | clip | found | wrong song / offset | no match | false pos. (unknown / leave-one-out) | speed error p50 / max | pitch error p50 / max (st) | score p50 (min) | chance max | query keys (primary) p50 | analysis p50 / p95 ms | match p50 / p95 ms | rows p50 / p95 |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const c of conditions) {
    for (const seconds of lengths) {
      const o = r.outcomes.get(outcomeKey(catalogue, strategy, c.name, seconds));
      const a = r.analysis.get(`${c.name}|${seconds}`);
      if (!o || !a) continue;
      const positives = o.clips - (c.unknown ? o.clips : 0);
      const fp = c.unknown ? `${o.falsePositives} / ${o.clips}` : `${o.leaveOneOutFalsePositives} / ${o.leaveOneOut}`;
      const speed = o.tempoErrors.length
        ? `${(100 * percentile(o.tempoErrors, 50)).toFixed(2)}% / ${(100 * Math.max(...o.tempoErrors)).toFixed(2)}%`
        : "-";
      const pitch = o.pitchErrors.length
        ? `${percentile(o.pitchErrors, 50).toFixed(2)} / ${Math.max(...o.pitchErrors).toFixed(2)}`
        : "-";
      const score = o.scores.length ? `${percentile(o.scores, 50)} (${Math.min(...o.scores)})` : "-";
      lines.push(
        `| ${c.name} | ${seconds} s | ${c.unknown ? "-" : pct(o.found, positives)} | ${c.unknown ? "-" : `${o.wrongSong} / ${o.wrongOffset}`} | ${c.unknown ? "-" : o.noMatch} | ${fp} | ${speed} | ${pitch} | ${score} | ${Math.max(0, ...o.chanceScores)} | ${int(percentile(a.keys, 50))} (${int(percentile(a.primaryKeys, 50))}) | ${ms(a.cpuMs, 50)} / ${ms(a.cpuMs, 95)} | ${ms(o.matchMs, 50)} / ${ms(o.matchMs, 95)} | ${int(percentile(o.rows, 50))} / ${int(percentile(o.rows, 95))} |`,
      );
    }
  }
  const errors = formatErrors(r, catalogue, strategy, conditions, lengths);
  if (errors) lines.push("", errors);
  return lines.join("\n");
}

/** The wrong answers and false positives of one strategy on one catalogue, one line each ("" when none). */
export function formatErrors(
  r: RunResult,
  catalogue: number,
  strategy: string,
  conditions: InvariantCondition[],
  lengths: number[],
): string {
  const errors = conditions.flatMap((c) =>
    lengths.flatMap((sec) =>
      (r.outcomes.get(outcomeKey(catalogue, strategy, c.name, sec))?.errors ?? []).map(
        (e) => `- ${c.name.replace(/, \d+ dB SNR$/, "")}, ${sec} s: ${e}`,
      ),
    ),
  );
  return errors.length ? [`Wrong answers and false positives (\`${strategy}\`):`, "", ...errors].join("\n") : "";
}

/** Found share per condition under each strategy on one catalogue: "5 s / 10 s". */
export function formatStrategies(
  r: RunResult,
  catalogue: number,
  strategies: Strategy[],
  conditions: InvariantCondition[],
  lengths: number[],
): string {
  const head = `| condition (${lengths.map((s) => `${s} s`).join(" / ")}) | ${strategies.map((s) => s.name).join(" | ")} |`;
  const lines = [head, `|---|${strategies.map(() => "---:").join("|")}|`];
  const cell = (o: Outcome | undefined, unknown: boolean) => {
    if (!o) return "-";
    if (o.notRead === o.clips) return "not read";
    if (o.notRead > 0) return `${o.notRead} of ${o.clips} not read`;
    if (unknown) return `${o.falsePositives} FP`;
    return pct(o.found, o.clips).replace(".0%", "%");
  };
  for (const c of conditions) {
    const cells = strategies.map((s) =>
      lengths
        .map((sec) => cell(r.outcomes.get(outcomeKey(catalogue, s.name, c.name, sec)), c.unknown ?? false))
        .join(" / "),
    );
    if (cells.every((x) => x.split(" / ").every((y) => y === "-"))) continue;
    lines.push(`| ${c.name} | ${cells.join(" | ")} |`);
  }
  const rows = strategies.map((s) =>
    lengths
      .map((sec) => {
        const o = merged(conditions.map((c) => r.outcomes.get(outcomeKey(catalogue, s.name, c.name, sec))));
        return o ? int(percentile(o.rows, 50)) : "-";
      })
      .join(" / "),
  );
  lines.push(`| rows read per clip, p50 | ${rows.join(" | ")} |`);
  const fp = strategies.map((s) => {
    const o = merged(
      conditions.flatMap((c) => lengths.map((sec) => r.outcomes.get(outcomeKey(catalogue, s.name, c.name, sec)))),
    );
    return o ? `${o.falsePositives + o.leaveOneOutFalsePositives} / ${o.leaveOneOut + unknownRead(o)}` : "-";
  });
  lines.push(`| false positives (unknown + leave-one-out) | ${fp.join(" | ")} |`);
  return lines.join("\n");
}

/** Unknown clips read in a merged outcome: every clip read is either a leave-one-out negative or unknown music. */
const unknownRead = (o: Outcome) => o.clips - o.leaveOneOut - o.notRead;

/** Catalogue size x strategy: rows, found share over the conditions run at scale, false positives, match time. */
export function formatScale(r: RunResult, strategies: Strategy[], conditions: InvariantCondition[], lengths: number[]) {
  const scaled = conditions.filter((c) => c.atScale);
  const known = scaled.filter((c) => !c.unknown);
  const lines = [
    `| catalogue | strategy | rows per clip p50 (${lengths.map((s) => `${s} s`).join(" / ")}) | rows p95 | keys read p50 | found, ${known.length} conditions (${lengths.map((s) => `${s} s`).join(" / ")}) | worst condition | false pos. | chance max | match p50 / p95 ms |`,
    "|---|---|---:|---:|---:|---:|---|---:|---:|---:|",
  ];
  r.catalogues.forEach((cat, n) => {
    for (const s of strategies) {
      const byLen = lengths.map((sec) => merged(scaled.map((c) => r.outcomes.get(outcomeKey(n, s.name, c.name, sec)))));
      const all = merged(byLen);
      if (!all) continue;
      const rows = byLen.map((o) => (o ? int(percentile(o.rows, 50)) : "-")).join(" / ");
      const read = all.notRead === 0;
      const found = lengths
        .map((sec) => {
          const o = merged(known.map((c) => r.outcomes.get(outcomeKey(n, s.name, c.name, sec))));
          if (!o || o.notRead === o.clips) return "not read";
          return o.notRead > 0 ? `${o.notRead} of ${o.clips} not read` : pct(o.found, o.clips);
        })
        .join(" / ");
      let worst = "-";
      if (read) {
        let w = Number.POSITIVE_INFINITY;
        for (const c of known)
          for (const sec of lengths) {
            const o = r.outcomes.get(outcomeKey(n, s.name, c.name, sec));
            if (o && o.clips > 0 && o.found / o.clips < w) {
              w = o.found / o.clips;
              worst = `${c.name.replace(/, \d+ dB SNR$/, "")} ${sec} s: ${(100 * w).toFixed(1)}%`;
            }
          }
      }
      const fp = read ? `${all.falsePositives + all.leaveOneOutFalsePositives} / ${all.clips - all.notRead}` : "-";
      const times = all.matchMs;
      lines.push(
        `| ${cat.label} | ${s.name} | ${rows} | ${int(percentile(all.rows, 95))} | ${int(percentile(all.keysRead, 50))} | ${found} | ${worst} | ${fp} | ${read ? Math.max(0, ...all.chanceScores) : "-"} | ${read ? `${ms(times, 50)} / ${ms(times, 95)}` : "-"} |`,
      );
    }
  });
  return lines.join("\n");
}

/** Rows per clip per catalogue hour on the real corpus, and what they come to at 100 h and 1,000 h. */
export function formatRowsPerHour(
  r: RunResult,
  strategies: Strategy[],
  conditions: InvariantCondition[],
  lengths: number[],
) {
  const hours = (r.catalogues[0] as { hours: number }).hours;
  const lines = [
    "| strategy | clip | rows per clip per catalogue hour (p50) | at 100 h | at 1,000 h | measured at the largest filler catalogue (p50) |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  const last = r.catalogues.length - 1;
  for (const s of strategies.filter((x) => x.budget === null)) {
    for (const sec of lengths) {
      const o = merged(conditions.map((c) => r.outcomes.get(outcomeKey(0, s.name, c.name, sec))));
      const big = merged(
        conditions.filter((c) => c.atScale).map((c) => r.outcomes.get(outcomeKey(last, s.name, c.name, sec))),
      );
      if (!o) continue;
      const perHour = percentile(o.rows, 50) / hours;
      lines.push(
        `| ${s.name} | ${sec} s | ${int(perHour)} | ${int(perHour * 100)} | ${int(perHour * 1000)} | ${big && last > 0 ? `${int(percentile(big.rows, 50))} at ${int((r.catalogues[last] as { hours: number }).hours)} h` : "-"} |`,
      );
    }
  }
  return lines.join("\n");
}

/** Issue 39's targets beside one strategy's figures at the catalogue sizes nearest 100 h and 1,000 h. */
export function formatTargets(
  r: RunResult,
  strategy: string,
  conditions: InvariantCondition[],
  lengths: number[],
  storeMbPerHour: number | null,
): string {
  const at = (hours: number) => {
    const n = r.catalogues.findIndex((c) => Math.abs(c.hours - hours) < 1);
    return n;
  };
  const sizes = [
    { label: "100 h", index: at(100), strict: true },
    { label: "1,000 h", index: at(1000), strict: false },
  ].filter((s) => s.index >= 0);
  const pick = (n: number, test: (c: InvariantCondition) => boolean, sec: number) =>
    merged(
      conditions.filter((c) => c.atScale && test(c)).map((c) => r.outcomes.get(outcomeKey(n, strategy, c.name, sec))),
    );
  const found = (n: number, test: (c: InvariantCondition) => boolean) =>
    lengths
      .map((sec) => {
        const o = pick(n, test, sec);
        if (!o || o.clips === 0) return "-";
        return o.notRead > 0 ? "not read" : pct(o.found, o.clips);
      })
      .join(" / ");
  const p95 = (n: number, test: (c: InvariantCondition) => boolean) =>
    lengths
      .map((sec) => {
        const o = pick(n, test, sec);
        return o?.answerMs.length ? ms(o.answerMs, 95) : "-";
      })
      .join(" / ");
  const wrong = (n: number) =>
    lengths
      .map((sec) => {
        const o = pick(n, () => true, sec);
        return o ? `${o.wrongSong + o.wrongOffset} wrong, ${o.falsePositives + o.leaveOneOutFalsePositives} FP` : "-";
      })
      .join(" / ");
  const plain = (c: InvariantCondition) => c.transform === null && !c.unknown && c.snrDb >= 10;
  const speed = (c: InvariantCondition) => c.name.startsWith("sped up") || /^slowed x0\.\d\d, /.test(c.name);
  const pitch = (c: InvariantCondition) => c.name.startsWith("pitch");
  const reverb = (c: InvariantCondition) => c.name.includes("+ reverb");
  const unknown = (c: InvariantCondition) => c.unknown === true;
  const known = (c: InvariantCondition) => !c.unknown;
  const rows: [string, string, string, (n: number) => string][] = [
    ["plain clips found", "100%", ">= 98%", (n) => found(n, plain)],
    ["sped up / slowed +-15% found", ">= 98%", ">= 95%", (n) => found(n, speed)],
    ["pitch +-2 semitones found", ">= 98%", ">= 95%", (n) => found(n, pitch)],
    ["slowed + reverb found", ">= 90%", ">= 85%", (n) => found(n, reverb)],
    ["p95 answer, found clips (CPU ms, rows' reading excluded)", "<= 150 ms", "<= 300 ms", (n) => p95(n, known)],
    ["p95 answer, unknown music", "<= 150 ms", "<= 300 ms", (n) => p95(n, unknown)],
    ["wrong answers, false positives", "0", "0", wrong],
  ];
  const head = `| (${lengths.map((s) => `${s} s`).join(" / ")} clips) | ${sizes.map((s) => `target ${s.label} | ${s.label}`).join(" | ")} |`;
  const lines = [head, `|---|${sizes.map(() => "---:|---:").join("|")}|`];
  for (const [name, t100, t1000, f] of rows)
    lines.push(`| ${name} | ${sizes.map((s) => `${s.strict ? t100 : t1000} | ${f(s.index)}`).join(" | ")} |`);
  const store = storeMbPerHour === null ? "-" : `${storeMbPerHour.toFixed(2)} MB`;
  lines.push(
    `| store per hour of audio (SQLite, key + suffix) | ${sizes.map(() => `<= 5 MB | ${store}`).join(" | ")} |`,
  );
  return lines.join("\n");
}
