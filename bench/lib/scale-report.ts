// The Markdown of bench:recognition-scale: the database (rows, build time, size per hour of audio), the latency of
// recognition end to end and per part, and the hello-world baseline.
import os from "node:os";
import type { ScaleDbInfo } from "./scale-db.js";
import { percentile, type Sample } from "./scale-load.js";

const MB = 1024 * 1024;
const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "-");
const int = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString("en") : "-");

export type ReportInput = {
  db: ScaleDbInfo;
  samples: Sample[];
  hello: number[];
  server: string;
  serverRssMb: number;
  queries: number;
  warmup: number;
  corpusHours: number;
  targetMs: number;
};

/** The run's Markdown section. */
export function report(r: ReportInput): string {
  const { db, samples } = r;
  const hours = db.hours;
  const row = (name: string, values: number[], fmt = f1) =>
    `| ${name} | ${fmt(percentile(values, 50))} | ${fmt(percentile(values, 95))} | ${fmt(percentile(values, 99))} | ${fmt(Math.max(...values.filter(Number.isFinite)))} |`;
  const total = samples.map((s) => s.totalMs);
  const parts = samples.map((s) => s.fingerprintMs + s.lookupMs + s.matchMs + s.warpMs);
  const warped = samples.filter((s) => s.warpMs > 0).length;
  const overhead = samples.map((s, i) => s.totalMs - (parts[i] as number));
  const correct = samples.filter((s) => s.correct).length;
  const matchedWrong = samples.filter((s) => s.matched && !s.correct).length;
  const p95 = percentile(total, 95);
  const indexBytes = db.objects.filter((o) => o.name !== "fingerprint").reduce((a, o) => a + o.bytes, 0);
  const tableBytes = db.objects.find((o) => o.name === "fingerprint")?.bytes ?? 0;
  const phases = Object.entries(db.build.phases)
    .map(([k, v]) => `${k} ${v.toFixed(0)} s`)
    .join(", ");
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  return [
    `## Recognition at scale: ${hours.toLocaleString("en")} h indexed`,
    "",
    `Machine: ${os.cpus().length} cores, ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}. Server: ${r.server}, SQLite.`,
    "",
    "| index | value |",
    "|---|---|",
    `| audio indexed | ${hours.toLocaleString("en")} h: ${db.catalogueSongs} real tracks (${r.corpusHours.toFixed(2)} h) + ${db.backgroundSongs.toLocaleString("en")} synthesized songs |`,
    `| fingerprint rows | ${db.rows.toLocaleString("en")} (${int(db.rows / hours)} per hour) |`,
    `| layout | ${db.layout} |`,
    `| build | ${db.build.seconds.toFixed(0)} s${db.reused ? " (when built; reused this run)" : ""}: ${phases} |`,
    `| database file | ${int(db.fileBytes / MB)} MB, ${f1(db.fileBytes / MB / hours)} MB per hour of audio |`,
    `| fingerprint table | ${int(tableBytes / MB)} MB, ${f1(tableBytes / MB / hours)} MB/h, ${f1(tableBytes / db.rows)} bytes/row |`,
    ...db.objects
      .filter((o) => o.name !== "fingerprint")
      .map(
        (o) =>
          `| index ${o.name} | ${int(o.bytes / MB)} MB, ${f1(o.bytes / MB / hours)} MB/h, ${f1(o.bytes / db.rows)} bytes/row |`,
      ),
    `| fingerprint indexes, total | ${int(indexBytes / MB)} MB, ${f1(indexBytes / MB / hours)} MB/h |`,
    "",
    `${samples.length} sequential queries (after ${r.warmup} not counted): 5 s clips at random offsets of the real tracks, white noise at 10 dB SNR, 16-bit PCM at 11,025 Hz (what the recognition page sends) to POST /api/recognition/pcm. Correct: the right song within 0.5 s of the true offset.`,
    "",
    "| ms | p50 | p95 | p99 | max |",
    "|---|---|---|---|---|",
    row("end to end (client)", total),
    ...(warped > 0
      ? [
          row(
            `end to end, the ${samples.length - warped} answered by the plain pass`,
            samples.filter((s) => s.warpMs === 0).map((s) => s.totalMs),
          ),
          row(
            `end to end, the ${warped} that ran the second pass`,
            samples.filter((s) => s.warpMs > 0).map((s) => s.totalMs),
          ),
        ]
      : []),
    row(
      "fingerprint (server)",
      samples.map((s) => s.fingerprintMs),
    ),
    row(
      "lookup (server)",
      samples.map((s) => s.lookupMs),
    ),
    row(
      "match (server)",
      samples.map((s) => s.matchMs),
    ),
    ...(warped > 0
      ? [
          // Only the queries it ran for: the others' zeros would pull its percentiles down.
          row(
            `warp second pass (server; ran for ${warped})`,
            samples.filter((s) => s.warpMs > 0).map((s) => s.warpMs),
          ),
        ]
      : []),
    row("HTTP and the rest (end to end - parts)", overhead),
    row(
      "rows read",
      samples.map((s) => s.rows),
      int,
    ),
    ...(warped > 0
      ? [
          row(
            `rows read by the second pass (the ${warped})`,
            samples.filter((s) => s.warpMs > 0).map((s) => s.warpRows),
            int,
          ),
        ]
      : []),
    row(
      "query hashes",
      samples.map((s) => s.hashes),
      int,
    ),
    row("hello-world GET / (same client)", r.hello),
    "",
    `Recognised correctly: ${correct}/${samples.length} (${f1((100 * correct) / samples.length)}%), wrong song or offset: ${matchedWrong}, no match: ${samples.length - correct - matchedWrong}. Server RSS at the end: ${int(r.serverRssMb)} MB.`,
    "",
    `- [${p95 < r.targetMs ? "x" : " "}] p95 < ${r.targetMs} ms end to end: ${f1(p95)} ms${p95 < r.targetMs ? "" : ` (${f1(p95 - r.targetMs)} ms over)`}`,
  ].join("\n");
}
