// What the server prints for a person at a terminal: readable log lines, a progress line that updates in place,
// and at the end the address and the demo accounts as a small table. Logs stay JSON lines for machines (stdout
// not a terminal, or LOG_FORMAT=json).
import type { Writable } from "node:stream";

/** Log levels that show every field of every log record (and records demoted from info or warn). */
const VERBOSE_LEVELS = new Set(["debug", "trace"]);

/** True when LOG_LEVEL asks for the details a person does not need by default. */
export function isVerbose(level: string): boolean {
  return VERBOSE_LEVELS.has(level);
}

/** How log lines look: `pretty` for people, `json` for log collectors. */
export type LogFormat = "pretty" | "json";

/** LOG_FORMAT=auto means pretty on a terminal and JSON when stdout is a pipe or a file. */
export function chooseLogFormat(setting: "auto" | "pretty" | "json", isTTY: boolean | undefined): LogFormat {
  if (setting === "auto") return isTTY ? "pretty" : "json";
  return setting;
}

/** A small table with a header row and box-drawing borders (plain ASCII when `ascii`). */
export function table(header: string[], rows: string[][], ascii = false): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const [h, v, tl, tm, tr, ml, mm, mr, bl, bm, br] = ascii
    ? ["-", "|", "+", "+", "+", "+", "+", "+", "+", "+", "+"]
    : ["─", "│", "┌", "┬", "┐", "├", "┼", "┤", "└", "┴", "┘"];
  const rule = (l: string, m: string, r: string) => `${l}${widths.map((w) => h.repeat(w + 2)).join(m)}${r}`;
  const line = (cells: string[]) => `${v}${widths.map((w, i) => ` ${(cells[i] ?? "").padEnd(w)} `).join(v)}${v}`;
  return [rule(tl, tm, tr), line(header), rule(ml, mm, mr), ...rows.map(line), rule(bl, bm, br)];
}

/** The demo accounts as a table: role, e-mail, password. */
export function accountsTable(accounts: { role: string; email: string; password: string }[], ascii = false): string[] {
  const label: Record<string, string> = { user: "listener", admin: "admin", super_admin: "super admin" };
  return table(
    ["role", "e-mail", "password"],
    accounts.map((a) => [label[a.role] ?? a.role, a.email, a.password]),
    ascii,
  );
}

const bold = (s: string, color: boolean) => (color ? `\x1b[1m${s}\x1b[22m` : s);
const cyan = (s: string, color: boolean) => (color ? `\x1b[36m${s}\x1b[39m` : s);

/** The lines printed once the server listens: where to open it, how long it took, and whom to sign in as. */
export function readyBanner(opts: {
  url: string;
  seconds: number;
  database: string;
  accounts?: { role: string; email: string; password: string }[];
  note?: string;
  color?: boolean;
}): string {
  const color = opts.color ?? false;
  const lines = [
    "",
    `  ${bold("Unheard is ready", color)} in ${opts.seconds.toFixed(1)} s (database: ${opts.database})`,
    `  Open ${cyan(opts.url, color)}`,
  ];
  if (opts.accounts?.length) {
    lines.push("", "  Demo accounts (first start only; change or remove them before going public):");
    for (const l of accountsTable(opts.accounts)) lines.push(`  ${l}`);
  }
  if (opts.note) lines.push("", `  ${opts.note}`);
  lines.push("");
  return lines.join("\n");
}

/**
 * One line that rewrites itself on a terminal ("Generating demo audio 120/300"); elsewhere a line is written
 * only when `force` is set (the caller decides how often a log file hears of it).
 */
export function progressLine(out: Writable & { isTTY?: boolean }) {
  let shown = false;
  return {
    update(text: string, force = false) {
      if (out.isTTY) {
        out.write(`\r\x1b[2K${text}`);
        shown = true;
      } else if (force) out.write(`${text}\n`);
    },
    /** Replace the line with a last text and end it, so the next output starts on a fresh line. */
    done(text: string) {
      out.write(out.isTTY && shown ? `\r\x1b[2K${text}\n` : `${text}\n`);
      shown = false;
    },
    /** Erase the line (terminal only), for output that follows to take its place. */
    clear() {
      if (out.isTTY && shown) out.write("\r\x1b[2K");
      shown = false;
    },
  };
}

/**
 * Which counts of a long background task deserve a line of their own: each tenth (`steps`) of the way, but no
 * two lines closer than `minGapMs` (cached work rushing through would print ten lines at once). The first and
 * the last count have lines of their own, so they never pass here.
 */
export function progressSteps(
  total: number,
  opts: { steps?: number; minGapMs?: number; now?: () => number } = {},
): (done: number) => boolean {
  const steps = opts.steps ?? 10;
  const minGapMs = opts.minGapMs ?? 3_000;
  const now = opts.now ?? (() => performance.now());
  let shownStep = 0;
  let shownAt = now();
  return (done) => {
    if (done <= 0 || done >= total) return false;
    const step = Math.floor((done * steps) / total);
    if (step <= shownStep) return false;
    const at = now();
    if (at - shownAt < minGapMs) return false;
    shownStep = step;
    shownAt = at;
    return true;
  };
}

/** "demo audio: 120 of 284 songs (42%), about 1 min left", the time left guessed from the pace so far. */
export function demoAudioProgressText(done: number, total: number, elapsedMs: number): string {
  const pct = Math.floor((done * 100) / Math.max(1, total));
  // Seconds in fives under a minute, whole minutes above (never "60 s").
  const leftSeconds = done > 0 ? Math.max(5, Math.ceil(((total - done) * elapsedMs) / done / 5000) * 5) : Number.NaN;
  const left = !Number.isFinite(leftSeconds)
    ? ""
    : leftSeconds < 60
      ? `, about ${leftSeconds} s left`
      : `, about ${Math.round(leftSeconds / 60)} min left`;
  return `demo audio: ${done} of ${total} songs (${pct}%)${left}`;
}

/** "database created (19 migrations)" on a new database, the names when a few were applied to an existing one. */
export function migrationsText(applied: string[]): string {
  const [first, last] = [applied[0] ?? "", applied[applied.length - 1] ?? ""];
  if (first.startsWith("0001_")) return `database created (${applied.length} migrations)`;
  if (applied.length <= 3) return `database migrated: ${applied.join(", ")}`;
  return `database migrated: ${applied.length} migrations, ${first} to ${last}`;
}

/** A pino log record as a destination stream receives it (one JSON line). */
export type LogRecord = {
  level: number;
  time?: number;
  msg?: string;
  err?: { type?: string; message?: string; stack?: string };
  [field: string]: unknown;
};

const LEVEL_NAMES: Record<number, [label: string, color: number]> = {
  10: ["TRACE", 90],
  20: ["DEBUG", 34],
  30: ["INFO", 32],
  40: ["WARN", 33],
  50: ["ERROR", 31],
  60: ["FATAL", 31],
};

/** Fields a person reads in the message itself, or that only a log collector needs. */
const UNSHOWN = new Set(["level", "time", "msg", "pid", "hostname", "err"]);

const clock = (time: number) => new Date(time).toTimeString().slice(0, 8);
const duration = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/**
 * One log record as one line: "[10:41:02] WARN: slow request (GET /, 200, 2.3 s)". A request's URL, status and
 * time are read into the line; an error's message follows its record's message, and an error (not a warning)
 * shows its stack below. Other fields appear only when `verbose` (LOG_LEVEL=debug), as JSON on the same line.
 */
export function formatLogRecord(rec: LogRecord, opts: { verbose: boolean; color: boolean }): string {
  const [label, code] = LEVEL_NAMES[rec.level] ?? [`LEVEL ${rec.level}`, 0];
  const level = opts.color && code ? `\x1b[${code}m${label}\x1b[39m` : label;
  let text = rec.msg ?? "";
  if (typeof rec.url === "string" && typeof rec.ms === "number") {
    const method = typeof rec.method === "string" ? `${rec.method} ` : "";
    const status = typeof rec.statusCode === "number" ? `, ${rec.statusCode}` : "";
    text += ` (${method}${rec.url}${status}, ${duration(rec.ms)})`;
  }
  const err = rec.err;
  if (err?.message) text += `: ${err.message.split("\n")[0]}`;
  if (opts.verbose) {
    const rest = Object.fromEntries(Object.entries(rec).filter(([k]) => !UNSHOWN.has(k)));
    if (Object.keys(rest).length > 0) text += ` ${JSON.stringify(rest)}`;
  }
  const line = `[${clock(rec.time ?? Date.now())}] ${level}: ${text}`;
  // A stack helps with an error (something is broken) and with debugging; a warning stays one line.
  const stack = err?.stack && (rec.level >= 50 || opts.verbose) ? err.stack.split("\n").slice(1) : [];
  return [line, ...stack.map((l) => `    ${l.trim()}`)].join("\n");
}

/**
 * A pino destination for people: each record written as formatLogRecord's line. Records `demote` picks (slow
 * answers while demo audio takes the cores) are left for LOG_LEVEL=debug; `before` runs ahead of each line (to
 * clear a progress line it would otherwise be written into).
 */
export function terminalLogStream(opts: {
  out: { write(text: string): unknown };
  verbose: boolean;
  color: boolean;
  demote?: (rec: LogRecord) => boolean;
  before?: () => void;
}): { write(line: string): void } {
  return {
    write(line) {
      let rec: LogRecord;
      try {
        rec = JSON.parse(line) as LogRecord;
      } catch {
        opts.out.write(line.endsWith("\n") ? line : `${line}\n`);
        return;
      }
      if (!opts.verbose && opts.demote?.(rec)) return;
      opts.before?.();
      opts.out.write(`${formatLogRecord(rec, opts)}\n`);
    },
  };
}
