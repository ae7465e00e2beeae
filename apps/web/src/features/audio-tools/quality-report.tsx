import { clsx } from "clsx";
import { CircleCheck, CircleX, Info, TriangleExclamationPoint } from "lucide-react";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { formatDuration } from "../../lib/format";
import { Panel } from "../../ui/page";
import type { AudioReport } from "./analysis";
import type { FingerprintStatus } from "./audio-tools";
import { drawSpectrogram, type FrequencyScale } from "./spectrogram";

const pct = (x: number) => `${(x * 100).toFixed(x > 0 && x < 0.001 ? 3 : x < 0.1 ? 2 : 1)}%`;
const db = (x: number) => (x <= -199 ? "−∞ dBFS" : `${x.toFixed(1)} dBFS`);
const khz = (hz: number) => `${(hz / 1000).toFixed(1)} kHz`;
const num = (x: number) => x.toLocaleString();

/** One measurement: label, value, and an optional note under it. */
function Metric({
  label,
  value,
  note,
  testId,
}: {
  label: string;
  value: ReactNode;
  note?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="rounded-xl border border-white/[0.06] bg-zinc-950/40 px-4 py-3">
      <dt className="text-xs font-medium text-zinc-500">{label}</dt>
      <dd data-testid={testId} className="mt-1 text-lg font-semibold tabular-nums text-white">
        {value}
      </dd>
      {note ? <dd className="mt-0.5 text-xs leading-snug text-zinc-400">{note}</dd> : null}
    </div>
  );
}

/** A pass/fail line of the spec's checklist. */
function Check({ ok, children }: { ok: boolean; children: ReactNode }) {
  const Icon = ok ? CircleCheck : CircleX;
  return (
    <li className="flex items-start gap-2 text-sm">
      <Icon aria-hidden className={clsx("mt-0.5 size-4 shrink-0", ok ? "text-emerald-300" : "text-rose-300")} />
      <span className={ok ? "text-zinc-200" : "text-zinc-300"}>
        {children}
        <span className="sr-only">{ok ? " (passed)" : " (failed)"}</span>
      </span>
    </li>
  );
}

/** The spec's verdict (§5) beside the better-founded one, with their reasons. */
function Verdicts({ report }: { report: AudioReport }) {
  const spec = report.specVerdict;
  const v = report.verdict;
  const tone = {
    good: "border-emerald-400/25 bg-emerald-500/10",
    usable: "border-amber-400/25 bg-amber-500/10",
    poor: "border-rose-400/25 bg-rose-500/10",
  }[v.verdict];
  const label = { good: "Good", usable: "Usable, with warnings", poor: "Poor" }[v.verdict];
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <section
        aria-label="Spec verdict"
        data-testid="spec-verdict"
        className={clsx(
          "rounded-2xl border p-5",
          spec.likelyValid ? "border-emerald-400/25 bg-emerald-500/10" : "border-rose-400/25 bg-rose-500/10",
        )}
      >
        <p className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Spec verdict</p>
        <p className="mt-1 text-xl font-bold text-white">{spec.likelyValid ? "Likely valid" : "Likely not valid"}</p>
        <ul className="mt-3 flex flex-col gap-1.5">
          <Check ok={report.durationSeconds > 30}>
            Duration over 30 s <span className="text-zinc-400">({report.durationSeconds.toFixed(1)} s)</span>
          </Check>
          <Check ok={report.specFingerprints > 50}>
            More than 50 fingerprints{" "}
            <span className="text-zinc-400">({num(report.specFingerprints)} with the spec's constants)</span>
          </Check>
          <Check ok={report.silenceRatio < 0.5}>
            Silence ratio under 0.5{" "}
            <span className="text-zinc-400">({report.silenceRatio.toFixed(3)}, |x| &lt; 0.01)</span>
          </Check>
        </ul>
        <p className="mt-3 text-xs leading-relaxed text-zinc-400">
          The spec's rule: a fixed length, a hash count and a sample threshold that depends on the recording's gain.
        </p>
      </section>
      <section
        aria-label="Quality verdict"
        data-testid="quality-verdict"
        className={clsx("rounded-2xl border p-5", tone)}
      >
        <p className="text-xs font-semibold uppercase tracking-wider text-zinc-400">Quality verdict</p>
        <p className="mt-1 text-xl font-bold text-white">{label}</p>
        {v.problems.length + v.warnings.length === 0 ? (
          <p className="mt-3 flex items-center gap-2 text-sm text-zinc-200">
            <CircleCheck aria-hidden className="size-4 text-emerald-300" /> No problems found.
          </p>
        ) : (
          <ul className="mt-3 flex flex-col gap-1.5">
            {v.problems.map((p) => (
              <Finding key={p} kind="Problem" text={p} />
            ))}
            {v.warnings.map((w) => (
              <Finding key={w} kind="Warning" text={w} />
            ))}
          </ul>
        )}
        <p className="mt-3 text-xs leading-relaxed text-zinc-400">
          Looks at what makes audio recognisable and faithful: enough non-silent audio (silence measured relative to the
          loudest passage, so gain does not matter), fingerprint density, level, clipping and a full-band source.
        </p>
      </section>
    </div>
  );
}

/** The spectrogram picture with the picked peaks as dots; scale and dots can be switched. */
function SpectrogramCanvas({ report }: { report: AudioReport }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [scale, setScale] = useState<FrequencyScale>("log");
  const [showPeaks, setShowPeaks] = useState(true);
  const width = 1200;
  const height = 360;
  useEffect(() => {
    const ctx = canvas.current?.getContext("2d");
    if (!ctx) return;
    drawSpectrogram(ctx, report.spectrogram, report.peaks, {
      canvasWidth: width,
      canvasHeight: height,
      scale,
      showPeaks,
    });
  }, [report, scale, showPeaks]);
  const spec = report.spectrogram;
  return (
    <section aria-labelledby="spectrogram-heading" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h3 id="spectrogram-heading" className="text-base font-semibold text-white">
            Spectrogram
          </h3>
          <p className="text-xs text-zinc-400">
            What the fingerprinter sees: {num(spec.sampleRate)} Hz, {num(spec.windowSize)}-sample window, hop{" "}
            {num(spec.hopSize)} ({report.preset} preset); {num(report.peaks.count)} picked peaks as dots.
          </p>
        </div>
        <div className="flex items-center gap-3 text-sm">
          <fieldset className="flex overflow-hidden rounded-full border border-white/10 text-xs">
            <legend className="sr-only">Frequency scale</legend>
            {(["log", "linear"] as const).map((s) => (
              <label
                key={s}
                className={clsx(
                  "cursor-pointer px-3 py-1.5 has-focus-visible:outline-2 has-focus-visible:outline-violet-400",
                  scale === s ? "bg-violet-500/25 text-white" : "text-zinc-400 hover:text-zinc-200",
                )}
              >
                <input
                  type="radio"
                  name="spectrogram-scale"
                  value={s}
                  checked={scale === s}
                  onChange={() => setScale(s)}
                  className="sr-only"
                />
                {s === "log" ? "Log frequency" : "Linear"}
              </label>
            ))}
          </fieldset>
          <label className="flex cursor-pointer items-center gap-2 text-xs text-zinc-300">
            <input
              type="checkbox"
              checked={showPeaks}
              onChange={(e) => setShowPeaks(e.target.checked)}
              className="size-4 accent-violet-500"
            />
            Show peaks
          </label>
        </div>
      </div>
      <div className="overflow-x-auto">
        <canvas
          ref={canvas}
          width={width}
          height={height}
          data-testid="spectrogram"
          role="img"
          aria-label={`Spectrogram of ${report.durationSeconds.toFixed(1)} s of audio with ${report.peaks.count} peaks`}
          className="h-auto w-full min-w-[640px] rounded-xl border border-white/[0.06] bg-zinc-950"
        />
      </div>
    </section>
  );
}

/** The average spectrum over the whole band, with the detected cutoff marked. */
function SpectrumChart({ report }: { report: AudioReport }) {
  const { hz, db: levels } = report.spectrum;
  const nyquist = report.sampleRate / 2;
  const w = 1200;
  const h = 200;
  const floor = -100;
  const points: string[] = [];
  for (let i = 0; i < hz.length; i++) {
    const x = ((hz[i] as number) / nyquist) * w;
    const y = (Math.min(0, Math.max(floor, levels[i] as number)) / floor) * h;
    points.push(`${x.toFixed(1)},${y.toFixed(1)}`);
  }
  const cutX = (report.cutoff.cutoffHz / nyquist) * w;
  const ticks = [0, 5000, 10000, 15000, 20000].filter((f) => f <= nyquist);
  return (
    <section aria-labelledby="spectrum-heading" className="flex flex-col gap-2">
      <h3 id="spectrum-heading" className="text-base font-semibold text-white">
        Average spectrum
      </h3>
      <div className="overflow-x-auto">
        <svg
          viewBox={`-52 -12 ${w + 64} ${h + 36}`}
          role="img"
          aria-label={`Average spectrum up to ${khz(nyquist)}, cutoff at ${khz(report.cutoff.cutoffHz)}`}
          className="w-full min-w-[640px] rounded-xl border border-white/[0.06] bg-zinc-950/60"
        >
          {[0, -20, -40, -60, -80, -100].map((d) => (
            <g key={d}>
              <line x1={0} x2={w} y1={(d / floor) * h} y2={(d / floor) * h} stroke="rgba(255,255,255,0.06)" />
              <text x={-8} y={(d / floor) * h + 4} textAnchor="end" fontSize="12" fill="#71717a">
                {d} dB
              </text>
            </g>
          ))}
          {ticks.map((f) => (
            <text key={f} x={(f / nyquist) * w} y={h + 20} textAnchor="middle" fontSize="12" fill="#71717a">
              {f / 1000} kHz
            </text>
          ))}
          <polygon points={`0,${h} ${points.join(" ")} ${w},${h}`} fill="rgba(139,92,246,0.18)" />
          <polyline points={points.join(" ")} fill="none" stroke="#a78bfa" strokeWidth="1.5" />
          {report.cutoff.cutoffHz > 0 ? (
            <g>
              <line x1={cutX} x2={cutX} y1={0} y2={h} stroke="#fbbf24" strokeDasharray="4 3" strokeWidth="1.5" />
              <text
                x={Math.min(cutX, w - 4)}
                y={12}
                textAnchor={cutX > w - 140 ? "end" : "start"}
                dx={cutX > w - 140 ? -8 : 8}
                fontSize="13"
                fill="#fde68a"
              >
                cutoff {khz(report.cutoff.cutoffHz)}
              </text>
            </g>
          ) : null}
        </svg>
      </div>
    </section>
  );
}

/** Where the audio came from, for the report header. */
export type ReportSource =
  | { kind: "song"; title: string; artists: string; status: "pending" | "verified" }
  | { kind: "file"; name: string; size: number };

/** The audio quality report: verdicts, measurements, spectrogram and spectrum. */
export function QualityReport({
  report,
  source,
  decodedNatively,
  server,
}: {
  report: AudioReport;
  source: ReportSource;
  /** False when the file's own sample rate could not be read (decoded at a fallback rate). */
  decodedNatively: boolean;
  /** The server's stored fingerprints of the song (songs only). */
  server?: { status: FingerprintStatus | undefined; loading: boolean; error: boolean } | undefined;
}) {
  const nyquist = report.sampleRate / 2;
  const bandLimited = !report.cutoff.sharp && report.cutoff.cutoffHz >= nyquist * 0.96 && nyquist < 19000;
  const stored = server?.status;
  return (
    <div data-testid="quality-report" className="flex flex-col gap-6">
      <Panel className="flex flex-col gap-6">
        <header className="flex flex-wrap items-baseline justify-between gap-2">
          <div className="min-w-0">
            <p className="text-xs font-semibold uppercase tracking-wider text-violet-300">Quality report</p>
            <h2 className="truncate text-xl font-bold text-white">
              {source.kind === "song" ? source.title : source.name}
            </h2>
            <p className="text-sm text-zinc-400">
              {source.kind === "song"
                ? `${source.artists} · ${source.status === "pending" ? "Pending" : "Verified"} song`
                : `Uploaded file · ${(source.size / (1024 * 1024)).toFixed(1)} MB`}
            </p>
          </div>
          <p className="text-xs text-zinc-500">Analysed in the browser in {(report.elapsedMs / 1000).toFixed(1)} s</p>
        </header>
        <Verdicts report={report} />
        <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-4">
          <Metric
            label="Duration"
            testId="metric-duration"
            value={formatDuration(report.durationSeconds)}
            note={`${report.durationSeconds.toFixed(2)} s`}
          />
          <Metric
            label="Sample rate"
            value={`${num(report.sampleRate)} Hz`}
            note={decodedNatively ? undefined : "The file's own rate could not be read; decoded at this rate."}
          />
          <Metric
            label="Channels"
            value={report.channels === 1 ? "1 (mono)" : report.channels === 2 ? "2 (stereo)" : report.channels}
          />
          <Metric label="Peak level" value={db(report.peakDbfs)} note="Loudest sample; 0 dBFS is full scale." />
          <Metric
            label="RMS level"
            value={db(report.rmsDbfs)}
            note="Average loudness; a full-scale sine reads −3 dBFS."
          />
          <Metric
            label="Clipping ratio"
            value={pct(report.clippingRatio)}
            note="Samples at full scale (|x| ≥ 0.999)."
          />
          <Metric
            label="Silence ratio (spec)"
            testId="metric-silence"
            value={report.silenceRatio.toFixed(3)}
            note="Samples with |x| < 0.01; depends on the gain."
          />
          <Metric
            label="Silence ratio (gain-independent)"
            value={report.relativeSilenceRatio.toFixed(3)}
            note="50 ms frames more than 45 dB below the loudest one."
          />
          <Metric
            label="Fingerprints"
            testId="metric-fingerprints"
            value={num(report.fingerprints)}
            note={`${report.fingerprintsPerSecond.toFixed(1)} per second (${report.preset} preset, computed here)`}
          />
          <Metric
            label="Fingerprints (spec constants)"
            value={num(report.specFingerprints)}
            note={`${report.specFingerprintsPerSecond.toFixed(1)} per second (spec preset)`}
          />
          {source.kind === "song" ? (
            <Metric
              label="Stored on the server"
              testId="metric-server-fingerprints"
              value={server?.loading ? "…" : server?.error || !stored ? "Unavailable" : num(stored.count)}
              note={
                stored
                  ? `${stored.perSecond.toFixed(1)} per second · ${stored.preset ?? "not indexed"}${
                      stored.job ? ` · job ${stored.job.status}` : ""
                    }${stored.job?.lastError ? `: ${stored.job.lastError}` : ""}`
                  : undefined
              }
            />
          ) : null}
          <Metric
            label="Spectral cutoff"
            testId="metric-cutoff"
            value={report.cutoff.cutoffHz > 0 ? khz(report.cutoff.cutoffHz) : "—"}
            note={
              <>
                Likely source: <span className="text-zinc-200">{report.cutoff.likelySource}</span>
                {report.cutoff.sharp ? " (sharp low-pass)" : ""}
                {bandLimited ? ` · limited by the ${num(report.sampleRate)} Hz sample rate` : ""}
              </>
            }
          />
        </dl>
        <SpectrogramCanvas report={report} />
        <SpectrumChart report={report} />
        <p className="flex items-start gap-2 text-xs text-zinc-500">
          <Info aria-hidden className="mt-0.5 size-3.5 shrink-0" />A lossy encoder removes everything above a cutoff
          that depends on its bitrate (about 11 kHz at 64 kbps, 16 kHz at 128 kbps, 19 kHz at 192 kbps); a file that
          claims high quality but stops early was transcoded from a low-bitrate source.
        </p>
      </Panel>
    </div>
  );
}

/** A problem or warning of the verdict; its kind is spoken, and shown by the icon. */
function Finding({ kind, text }: { kind: "Problem" | "Warning"; text: string }) {
  const problem = kind === "Problem";
  const Icon = problem ? CircleX : TriangleExclamationPoint;
  return (
    <li className="flex items-start gap-2 text-sm text-zinc-200">
      <Icon aria-hidden className={clsx("mt-0.5 size-4 shrink-0", problem ? "text-rose-300" : "text-amber-300")} />
      <span>
        <span className="sr-only">{kind}: </span>
        {text}
      </span>
    </li>
  );
}
