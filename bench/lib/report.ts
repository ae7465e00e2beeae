import type { BenchResult, ConditionResult, PresetResult } from "./run.js";

/** Bytes per stored row assumed for the storage estimate: hash int4 + offset int4 + song ref int4. */
export const BYTES_PER_ROW = 12;

const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "-");

/** The p-th percentile (0..100) of a list, nearest-rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

function conditionRow(c: ConditionResult): string {
  const wrong = c.wrongSong + c.wrongOffset;
  return `| ${c.condition} | ${c.queries} | ${pct(c.correct, c.queries)} | ${pct(wrong, c.queries)} | ${pct(
    c.noMatch,
    c.queries,
  )} | ${c.falsePositives}/${c.negatives} | ${c.leaveOneOutFalsePositives}/${c.leaveOneOut} | ${percentile(c.cpuMs, 50).toFixed(1)} | ${percentile(
    c.cpuMs,
    95,
  ).toFixed(1)} |`;
}

/** Indexing figures of one preset. */
export function indexingFigures(r: PresetResult) {
  const withDecode = (r.indexedSeconds * 1000) / (r.decodeCpuMs + r.fingerprintCpuMs);
  const withoutDecode = (r.indexedSeconds * 1000) / r.fingerprintCpuMs;
  const wallWithDecode = (r.indexedSeconds * 1000) / (r.decodeMs + r.fingerprintMs);
  const wallWithoutDecode = (r.indexedSeconds * 1000) / r.fingerprintMs;
  const hashesPerSecond = r.postingsStored / r.indexedSeconds;
  const bytesPerHour = hashesPerSecond * 3600 * BYTES_PER_ROW;
  const latencies = r.conditions.flatMap((c) => c.cpuMs);
  const unknown = r.conditions.flatMap((c) => c.negativeCpuMs);
  const wall = r.conditions.flatMap((c) => c.latenciesMs);
  const negatives = r.conditions.flatMap((c) => [...c.negativeScores, ...c.leaveOneOutScores]);
  const positives = r.conditions.flatMap((c) => c.positiveScores);
  return {
    withDecode,
    withoutDecode,
    wallWithDecode,
    wallWithoutDecode,
    wallP50: percentile(wall, 50),
    wallP95: percentile(wall, 95),
    maxNegativeAligned: Math.max(0, ...negatives.map((s) => s.aligned)),
    maxNegativeLead: Math.max(0, ...negatives.map((s) => s.lead)),
    minPositiveAligned: Math.min(...positives.map((s) => s.aligned)),
    medianPositiveAligned: percentile(
      positives.map((s) => s.aligned),
      50,
    ),
    hashesPerSecond,
    generatedPerSecond: r.hashesGenerated / r.indexedSeconds,
    bytesPerHour,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    unknownP50: percentile(unknown, 50),
    unknownP95: percentile(unknown, 95),
    falsePositives: r.conditions.reduce((n, c) => n + c.falsePositives, 0),
    negatives: r.conditions.reduce((n, c) => n + c.negatives, 0),
    looFalsePositives: r.conditions.reduce((n, c) => n + c.leaveOneOutFalsePositives, 0),
    looQueries: r.conditions.reduce((n, c) => n + c.leaveOneOut, 0),
  };
}

/** A Markdown table per preset, with the indexing and storage figures under it. */
export function formatPreset(r: PresetResult, run: BenchResult): string {
  const f = indexingFigures(r);
  const wrongOffsets = r.conditions.reduce((n, c) => n + c.wrongOffset, 0);
  const lines = [
    `### Preset \`${r.preset.name}\``,
    "",
    "| condition | queries | correct | wrong | no match | false pos. held-out | false pos. leave-one-out | p50 ms CPU | p95 ms CPU |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...r.conditions.map(conditionRow),
    "",
    `- False positives: ${f.falsePositives} of ${f.negatives} clips of held-out tracks; ${f.looFalsePositives} of ` +
      `${f.looQueries} catalogue clips asked again without their own song (leave-one-out).` +
      (wrongOffsets ? ` "Wrong" includes ${wrongOffsets} answer(s) naming the right song at a wrong offset.` : ""),
    `- Query latency (fingerprint + match, ${run.catalogueTracks} tracks indexed), all conditions: p50 ${f.p50.toFixed(
      1,
    )} ms, p95 ${f.p95.toFixed(1)} ms of CPU (wall clock p50 ${f.wallP50.toFixed(1)} ms, p95 ${f.wallP95.toFixed(1)} ms); ` +
      `out-of-catalogue clips (refused) p50 ${f.unknownP50.toFixed(1)} ms, p95 ${f.unknownP95.toFixed(1)} ms of CPU.`,
    `- Scores (aligned hashes of the best candidate): negatives (both kinds) at most ${f.maxNegativeAligned} (lead over runner-up at ` +
      `most ${f.maxNegativeLead}); right-song positives median ${f.medianPositiveAligned}, minimum ${f.minPositiveAligned}.`,
    `- Indexing on one core: ${f.withDecode.toFixed(0)}x realtime including decode, ${f.withoutDecode.toFixed(
      0,
    )}x excluding decode, by CPU time (wall clock ${f.wallWithDecode.toFixed(0)}x and ${f.wallWithoutDecode.toFixed(
      0,
    )}x; index sort ${r.indexBuildMs.toFixed(0)} ms not counted).`,
    `- Hashes: ${f.hashesPerSecond.toFixed(1)} stored per second of audio (${f.generatedPerSecond.toFixed(
      1,
    )} generated, ${r.prunedHashes} over-common hash values pruned); ${(f.bytesPerHour / 1e6).toFixed(
      1,
    )} MB per hour of audio at ${BYTES_PER_ROW} bytes per row (hash int4 + offset int4 + song ref int4, no index overhead).`,
  ];
  return lines.join("\n");
}

/** The certainty words of each condition's correct answers, and of its wrong ones (decision 028). */
export function formatCertainty(r: PresetResult): string {
  const lines = [
    `How sure, preset \`${r.preset.name}\` (the words the recognition page shows; decision 028):`,
    "",
    "| condition | correct: sure | likely | weak | wrong: sure | likely | weak |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  const total = { sure: 0, likely: 0, weak: 0, wrongSure: 0, wrongLikely: 0, wrongWeak: 0 };
  for (const c of r.conditions) {
    const k = c.certainty;
    const w = c.wrongCertainty;
    lines.push(`| ${c.condition} | ${k.sure} | ${k.likely} | ${k.weak} | ${w.sure} | ${w.likely} | ${w.weak} |`);
    total.sure += k.sure;
    total.likely += k.likely;
    total.weak += k.weak;
    total.wrongSure += w.sure;
    total.wrongLikely += w.likely;
    total.wrongWeak += w.weak;
  }
  lines.push(
    `| all | ${total.sure} | ${total.likely} | ${total.weak} | ${total.wrongSure} | ${total.wrongLikely} | ${total.wrongWeak} |`,
  );
  return lines.join("\n");
}

/** For the transformed conditions: the true factors, the detected ones (median of correct answers), the worst error. */
export function formatTransforms(r: PresetResult): string {
  const rows = r.conditions.filter((c) => c.truth);
  if (rows.length === 0) return "";
  const st = (p: number) => `${(12 * Math.log2(p)).toFixed(2)} st`;
  const lines = [
    `Detected transform, preset \`${r.preset.name}\` (correct answers; "second pass" = answered by the warped search):`,
    "",
    "| condition | true tempo / pitch | median detected tempo / pitch | worst error tempo / pitch | second pass |",
    "|---|---:|---:|---:|---:|",
  ];
  for (const c of rows) {
    const t = c.truth as NonNullable<typeof c.truth>;
    const tempos = c.detected.map((d) => d.tempo);
    const pitches = c.detected.map((d) => d.pitch);
    const worst = (xs: number[], truth: number) =>
      xs.length ? `${(100 * Math.max(...xs.map((x) => Math.abs(x / truth - 1)))).toFixed(2)}%` : "-";
    lines.push(
      `| ${c.condition} | x${t.tempo.toFixed(3)} / ${st(t.pitch)} | ${
        c.detected.length ? `x${percentile(tempos, 50).toFixed(3)} / ${st(percentile(pitches, 50))}` : "-"
      } | ${worst(tempos, t.tempo)} / ${worst(pitches, t.pitch)} | ${c.secondPass}/${c.correct} |`,
    );
  }
  return lines.join("\n");
}
