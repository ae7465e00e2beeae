// What the server prints for a person at a terminal: readable log lines, a progress line that updates in place,
// and at the end the address and the demo accounts as a small table. Logs stay JSON lines for machines (stdout
// not a terminal, or LOG_FORMAT=json).
import type { Writable } from "node:stream";

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
