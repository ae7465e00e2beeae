import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  accountsTable,
  chooseLogFormat,
  demoAudioProgressText,
  formatLogRecord,
  isVerbose,
  type LogRecord,
  migrationsText,
  progressLine,
  progressSteps,
  readyBanner,
  terminalLogStream,
} from "./terminal.js";

const accounts = [
  { role: "user", email: "listener@unheard.local", password: "listener123" },
  { role: "super_admin", email: "super@unheard.local", password: "super123" },
];

describe("terminal output", () => {
  it("logs readable lines on a terminal and JSON lines elsewhere, unless LOG_FORMAT says otherwise", () => {
    expect(chooseLogFormat("auto", true)).toBe("pretty");
    expect(chooseLogFormat("auto", false)).toBe("json");
    expect(chooseLogFormat("auto", undefined)).toBe("json");
    expect(chooseLogFormat("json", true)).toBe("json");
    expect(chooseLogFormat("pretty", false)).toBe("pretty");
  });

  it("shows the demo accounts as a table of role, e-mail and password", () => {
    expect(accountsTable(accounts, true)).toEqual([
      "+-------------+------------------------+-------------+",
      "| role        | e-mail                 | password    |",
      "+-------------+------------------------+-------------+",
      "| listener    | listener@unheard.local | listener123 |",
      "| super admin | super@unheard.local    | super123    |",
      "+-------------+------------------------+-------------+",
    ]);
    const boxed = accountsTable(accounts);
    expect(boxed[0]).toMatch(/^┌─+┬─+┬─+┐$/);
    expect(new Set(boxed.map((l) => l.length)).size).toBe(1);
  });

  it("ends with the address, the time to ready and the accounts", () => {
    const text = readyBanner({ url: "http://localhost:3000", seconds: 4.26, database: "sqlite", accounts });
    expect(text).toContain("Unheard is ready in 4.3 s (database: sqlite)");
    expect(text).toContain("Open http://localhost:3000");
    expect(text).toContain("│ listener    │ listener@unheard.local │ listener123 │");
    expect(text).not.toContain("\x1b[");
    expect(readyBanner({ url: "u", seconds: 1, database: "postgres", color: true })).toContain("\x1b[1m");
    expect(readyBanner({ url: "u", seconds: 1, database: "postgres" })).not.toContain("Demo accounts");
  });

  it("rewrites one progress line on a terminal, and prints only what is forced elsewhere", () => {
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    const line = progressLine(tty);
    line.update("Generating demo audio 1/3");
    line.update("Generating demo audio 2/3");
    line.done("Generated 3 songs");
    expect(tty.read().toString()).toBe(
      "\r\x1b[2KGenerating demo audio 1/3\r\x1b[2KGenerating demo audio 2/3\r\x1b[2KGenerated 3 songs\n",
    );
    const pipe = new PassThrough();
    const plain = progressLine(pipe);
    plain.update("1/3");
    plain.update("2/3", true);
    plain.clear();
    plain.done("done");
    expect(pipe.read().toString()).toBe("2/3\ndone\n");
  });

  it("prints background progress at each tenth, never two lines within a few seconds", () => {
    let now = 0;
    const steps = progressSteps(100, { now: () => now });
    const shown: number[] = [];
    for (let done = 0; done <= 100; done++) {
      now += 1_000;
      if (steps(done)) shown.push(done);
    }
    // A second per song: a line at 10, 20, ... 90; the first and last counts have lines of their own.
    expect(shown).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90]);
    // Cached songs rushing through: nothing until a few seconds have passed, then the tenth reached by then.
    now = 0;
    const fast = progressSteps(100, { now: () => now });
    const rushed: number[] = [];
    for (let done = 0; done < 100; done++) {
      now += done < 60 ? 10 : 1_000;
      if (fast(done)) rushed.push(done);
    }
    expect(rushed).toEqual([62, 70, 80, 90]);
  });

  it("says how far demo audio has come and about how long is left", () => {
    expect(demoAudioProgressText(120, 284, 60_000)).toBe("demo audio: 120 of 284 songs (42%), about 1 min left");
    expect(demoAudioProgressText(250, 284, 60_000)).toBe("demo audio: 250 of 284 songs (88%), about 10 s left");
    expect(demoAudioProgressText(10, 284, 60_000)).toBe("demo audio: 10 of 284 songs (3%), about 27 min left");
    expect(demoAudioProgressText(228, 284, 233_000)).toBe("demo audio: 228 of 284 songs (80%), about 1 min left");
    expect(demoAudioProgressText(283, 284, 60_000)).toBe("demo audio: 283 of 284 songs (99%), about 5 s left");
    expect(demoAudioProgressText(0, 284, 0)).toBe("demo audio: 0 of 284 songs (0%)");
  });

  it("names a new database's migrations by count, and a few new ones by name (issue 38)", () => {
    const all = Array.from({ length: 19 }, (_, i) => `${String(i + 1).padStart(4, "0")}_step_${i + 1}`);
    expect(migrationsText(all)).toBe("database created (19 migrations)");
    expect(migrationsText(["0019_drop_old_search_tables"])).toBe("database migrated: 0019_drop_old_search_tables");
    expect(migrationsText(all.slice(10))).toBe("database migrated: 9 migrations, 0011_step_11 to 0019_step_19");
    for (const n of [1, 3, 9, 19]) expect(migrationsText(all.slice(19 - n)).length).toBeLessThan(80);
  });

  const at = new Date(2026, 0, 2, 10, 41, 2).getTime();
  const plain = { verbose: false, color: false };

  it("writes a log record as one line, a request's URL, status and time read into it (issue 38)", () => {
    const slow: LogRecord = {
      level: 40,
      time: at,
      reqId: "req-1",
      url: "/",
      statusCode: 200,
      ms: 2305.17,
      msg: "slow request",
    };
    expect(formatLogRecord(slow, plain)).toBe("[10:41:02] WARN: slow request (/, 200, 2.3 s)");
    expect(formatLogRecord({ ...slow, level: 20, method: "GET", ms: 12.4, msg: "request completed" }, plain)).toBe(
      "[10:41:02] DEBUG: request completed (GET /, 200, 12 ms)",
    );
    // A warning's error is its message, on the same line; its stack and other fields wait for LOG_LEVEL=debug.
    const err = {
      type: "Error",
      message: "connection lost\nat socket",
      stack: "Error: connection lost\n    at a (x.js:1:1)",
    };
    expect(formatLogRecord({ level: 40, time: at, err, linkId: "l1", msg: "tracker sync failed" }, plain)).toBe(
      "[10:41:02] WARN: tracker sync failed: connection lost",
    );
    // An error shows where it happened.
    expect(formatLogRecord({ level: 50, time: at, err, msg: "digest failed" }, plain).split("\n")).toEqual([
      "[10:41:02] ERROR: digest failed: connection lost",
      "    at a (x.js:1:1)",
    ]);
    expect(
      formatLogRecord({ level: 30, time: at, pid: 1, hostname: "h", signal: "SIGINT", msg: "shutting down" }, plain),
    ).toBe("[10:41:02] INFO: shutting down");
    expect(formatLogRecord({ level: 30, time: at, msg: "ready" }, { verbose: false, color: true })).toBe(
      "[10:41:02] \x1b[32mINFO\x1b[39m: ready",
    );
  });

  it("shows every field with LOG_LEVEL=debug, still one line per record", () => {
    expect(isVerbose("debug")).toBe(true);
    expect(isVerbose("trace")).toBe(true);
    expect(isVerbose("info")).toBe(false);
    expect(isVerbose("warn")).toBe(false);
    const line = formatLogRecord(
      { level: 30, time: at, pid: 1, hostname: "h", signal: "SIGINT", msg: "shutting down" },
      { verbose: true, color: false },
    );
    expect(line).toBe('[10:41:02] INFO: shutting down {"signal":"SIGINT"}');
  });

  it("prints pino's JSON records as lines, leaves demoted ones for debug and clears a progress line first", () => {
    let out = "";
    let cleared = 0;
    const demote = (rec: LogRecord) => rec.msg === "slow request";
    const record = (rec: LogRecord) => `${JSON.stringify({ time: at, ...rec })}\n`;
    const stream = terminalLogStream({
      out: { write: (t: string) => (out += t) },
      verbose: false,
      color: false,
      demote,
      before: () => cleared++,
    });
    stream.write(record({ level: 40, url: "/", statusCode: 200, ms: 2300, msg: "slow request" }));
    stream.write(record({ level: 30, msg: "demo audio: 29 of 284 songs (10%), about 3 min left" }));
    stream.write("not json");
    expect(out).toBe("[10:41:02] INFO: demo audio: 29 of 284 songs (10%), about 3 min left\nnot json\n");
    expect(cleared).toBe(1);
    let debug = "";
    const verbose = terminalLogStream({
      out: { write: (t: string) => (debug += t) },
      verbose: true,
      color: false,
      demote,
    });
    verbose.write(record({ level: 40, url: "/", statusCode: 200, ms: 2300, msg: "slow request" }));
    expect(debug).toBe('[10:41:02] WARN: slow request (/, 200, 2.3 s) {"url":"/","statusCode":200,"ms":2300}\n');
  });
});
