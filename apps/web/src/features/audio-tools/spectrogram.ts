import type { Spectrogram } from "@unheard/fingerprint";

/** Inferno-like colour stops (dark purple to pale yellow), 0..1 -> RGB. */
const STOPS: [number, number, number][] = [
  [0, 0, 4],
  [31, 12, 72],
  [85, 15, 109],
  [136, 34, 106],
  [186, 54, 85],
  [227, 89, 51],
  [249, 140, 10],
  [249, 201, 50],
  [252, 255, 164],
];

/** 256-entry RGB lookup table of the colour map. */
export const COLOR_LUT: Uint8ClampedArray = (() => {
  const lut = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const t = (i / 255) * (STOPS.length - 1);
    const k = Math.min(STOPS.length - 2, Math.floor(t));
    const f = t - k;
    const a = STOPS[k] as [number, number, number];
    const b = STOPS[k + 1] as [number, number, number];
    for (let c = 0; c < 3; c++) {
      const from = a[c] as number;
      lut[i * 3 + c] = Math.round(from + ((b[c] as number) - from) * f);
    }
  }
  return lut;
})();

/** Frequency axis of the picture: logarithmic (music spreads over octaves) or linear in Hz. */
export type FrequencyScale = "log" | "linear";

/** The mapping between picture rows and frequencies. */
export type FrequencyAxis = { scale: FrequencyScale; minHz: number; maxHz: number; height: number };

/** The row (0 at the top) where frequency `hz` is drawn. */
export function frequencyToY(hz: number, axis: FrequencyAxis): number {
  const { scale, minHz, maxHz, height } = axis;
  const t =
    scale === "log"
      ? Math.log(Math.max(hz, minHz) / minHz) / Math.log(maxHz / minHz)
      : (Math.max(hz, minHz) - minHz) / (maxHz - minHz);
  return (1 - Math.min(1, Math.max(0, t))) * height;
}

/** The frequency shown at row `y` (0 at the top). */
export function yToFrequency(y: number, axis: FrequencyAxis): number {
  const { scale, minHz, maxHz, height } = axis;
  const t = 1 - y / height;
  return scale === "log" ? minHz * (maxHz / minHz) ** t : minHz + (maxHz - minHz) * t;
}

/** For each picture row, the range of spectrogram bins it covers (at least one bin). */
export function rowBins(axis: FrequencyAxis, binHz: number, binCount: number): { lo: Int32Array; hi: Int32Array } {
  const lo = new Int32Array(axis.height);
  const hi = new Int32Array(axis.height);
  for (let y = 0; y < axis.height; y++) {
    const top = yToFrequency(y, axis) / binHz;
    const bottom = yToFrequency(y + 1, axis) / binHz;
    let a = Math.max(0, Math.min(binCount - 1, Math.round(bottom)));
    let b = Math.max(0, Math.min(binCount - 1, Math.round(top)));
    if (b < a) [a, b] = [b, a];
    lo[y] = a;
    hi[y] = b;
  }
  return { lo, hi };
}

/** For each picture column, the range of frames it covers (at least one frame). */
export function columnFrames(width: number, frameCount: number): { lo: Int32Array; hi: Int32Array } {
  const lo = new Int32Array(width);
  const hi = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    const a = Math.floor((x * frameCount) / width);
    const b = Math.max(a, Math.ceil(((x + 1) * frameCount) / width) - 1);
    lo[x] = Math.min(frameCount - 1, a);
    hi[x] = Math.min(frameCount - 1, b);
  }
  return { lo, hi };
}

/** Drawing options: the plot's size in canvas pixels, levels shown, axis. */
export type SpectrogramOptions = {
  width: number;
  height: number;
  scale: FrequencyScale;
  /** Levels from `maxDb - rangeDb` (black) to `maxDb` (white). */
  rangeDb?: number;
  /** Lowest frequency on a log axis (Hz). */
  minHz?: number;
};

/**
 * The spectrogram as RGBA pixels (`width` x `height`), each pixel the loudest bin of the frames and bins it
 * covers, coloured over `rangeDb` below the loudest bin.
 */
export function spectrogramPixels(spec: Spectrogram, options: SpectrogramOptions): Uint8ClampedArray<ArrayBuffer> {
  const { width, height, scale } = options;
  const rangeDb = options.rangeDb ?? 80;
  const binHz = spec.sampleRate / spec.windowSize;
  const axis: FrequencyAxis = {
    scale,
    minHz: scale === "log" ? (options.minHz ?? 40) : 0,
    maxHz: spec.sampleRate / 2,
    height,
  };
  const rows = rowBins(axis, binHz, spec.binCount);
  const pixels = new Uint8ClampedArray(width * height * 4);
  if (spec.frameCount === 0) return pixels;
  const cols = columnFrames(width, spec.frameCount);
  const floor = spec.maxDb - rangeDb;
  const column = new Float32Array(spec.binCount);
  for (let x = 0; x < width; x++) {
    column.fill(-Infinity);
    for (let f = cols.lo[x] as number; f <= (cols.hi[x] as number); f++) {
      const row = f * spec.binCount;
      for (let b = 0; b < spec.binCount; b++) {
        const v = spec.data[row + b] as number;
        if (v > (column[b] as number)) column[b] = v;
      }
    }
    for (let y = 0; y < height; y++) {
      let m = -Infinity;
      for (let b = rows.lo[y] as number; b <= (rows.hi[y] as number); b++) m = Math.max(m, column[b] as number);
      const t = Math.max(0, Math.min(1, (m - floor) / rangeDb));
      const i = Math.round(t * 255) * 3;
      const p = (y * width + x) * 4;
      pixels[p] = COLOR_LUT[i] as number;
      pixels[p + 1] = COLOR_LUT[i + 1] as number;
      pixels[p + 2] = COLOR_LUT[i + 2] as number;
      pixels[p + 3] = 255;
    }
  }
  return pixels;
}

/** Round tick values for a time axis of `seconds`, about `count` of them. */
export function timeTicks(seconds: number, count = 8): number[] {
  if (!(seconds > 0)) return [0];
  const raw = seconds / count;
  const steps = [0.5, 1, 2, 5, 10, 15, 20, 30, 60, 120, 300];
  const step = steps.find((s) => s >= raw) ?? 600;
  const ticks: number[] = [];
  for (let t = 0; t <= seconds + 1e-9; t += step) ticks.push(Math.round(t * 1000) / 1000);
  return ticks;
}

/** Frequency ticks (Hz) inside the axis range. */
export function frequencyTicks(axis: FrequencyAxis): number[] {
  const candidates =
    axis.scale === "log" ? [50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000] : [0, 500, 1000, 1500, 2000, 2500];
  return candidates.filter((f) => f >= axis.minHz && f <= axis.maxHz);
}

const hzLabel = (hz: number) => (hz >= 1000 ? `${hz / 1000}k` : String(hz));
const secondsLabel = (s: number) => {
  const m = Math.floor(s / 60);
  const r = s - m * 60;
  return m > 0 ? `${m}:${String(Math.floor(r)).padStart(2, "0")}` : `${Number.isInteger(r) ? r : r.toFixed(1)}s`;
};

/** Margins of the plot inside the canvas (axis labels sit in them). */
export const PLOT_MARGIN = { left: 52, right: 12, top: 10, bottom: 28 };

/**
 * Draw the spectrogram with its axes and the picked peaks (dots) on a canvas of `canvasWidth` x `canvasHeight`
 * pixels. Returns the number of peaks drawn.
 */
export function drawSpectrogram(
  ctx: CanvasRenderingContext2D,
  spec: Spectrogram,
  peaks: { count: number; frames: Int32Array; bins: Int32Array } | null,
  options: { canvasWidth: number; canvasHeight: number; scale: FrequencyScale; showPeaks: boolean; rangeDb?: number },
): number {
  const { canvasWidth, canvasHeight, scale } = options;
  const m = PLOT_MARGIN;
  const width = Math.max(1, canvasWidth - m.left - m.right);
  const height = Math.max(1, canvasHeight - m.top - m.bottom);
  ctx.fillStyle = "#09090b";
  ctx.fillRect(0, 0, canvasWidth, canvasHeight);
  const pixels = spectrogramPixels(spec, { width, height, scale, rangeDb: options.rangeDb ?? 80 });
  ctx.putImageData(new ImageData(pixels, width, height), m.left, m.top);

  const axis: FrequencyAxis = { scale, minHz: scale === "log" ? 40 : 0, maxHz: spec.sampleRate / 2, height };
  const binHz = spec.sampleRate / spec.windowSize;
  let drawn = 0;
  if (options.showPeaks && peaks && spec.frameCount > 0) {
    // Dots shrink as they crowd, so a long song stays readable; a dark rim keeps them visible on bright areas.
    const perPixel = peaks.count / (width * height);
    const r = perPixel > 0.02 ? 1.1 : perPixel > 0.005 ? 1.6 : 2.3;
    ctx.beginPath();
    for (let i = 0; i < peaks.count; i++) {
      const x = m.left + (((peaks.frames[i] as number) + 0.5) / spec.frameCount) * width;
      const hz = (peaks.bins[i] as number) * binHz;
      if (hz < axis.minHz) continue;
      const y = m.top + frequencyToY(hz, axis);
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, Math.PI * 2);
      drawn++;
    }
    ctx.fillStyle = "rgba(103, 232, 249, 0.95)";
    if (r > 1.5) {
      ctx.strokeStyle = "rgba(8, 8, 12, 0.8)";
      ctx.lineWidth = 1;
      ctx.stroke();
    }
    ctx.fill();
  }

  // Axes: frequency on the left, time at the bottom.
  ctx.fillStyle = "#a1a1aa";
  ctx.strokeStyle = "rgba(255,255,255,0.25)";
  ctx.font = "11px ui-sans-serif, system-ui, sans-serif";
  ctx.textAlign = "right";
  ctx.textBaseline = "middle";
  for (const hz of frequencyTicks(axis)) {
    const y = Math.round(m.top + frequencyToY(hz, axis)) + 0.5;
    ctx.fillText(`${hzLabel(hz)} Hz`, m.left - 6, y);
    ctx.beginPath();
    ctx.moveTo(m.left - 3, y);
    ctx.lineTo(m.left, y);
    ctx.stroke();
  }
  // Column x shows frames starting at x / width of the clip: the axis runs over frameCount hops.
  const seconds = (spec.frameCount * spec.hopSize) / spec.sampleRate;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  for (const t of timeTicks(seconds)) {
    const x = Math.round(m.left + Math.min(1, t / seconds) * width) + 0.5;
    ctx.fillText(secondsLabel(t), Math.min(x, canvasWidth - 14), m.top + height + 8);
    ctx.beginPath();
    ctx.moveTo(x, m.top + height);
    ctx.lineTo(x, m.top + height + 4);
    ctx.stroke();
  }
  ctx.strokeRect(m.left - 0.5, m.top - 0.5, width + 1, height + 1);
  return drawn;
}
