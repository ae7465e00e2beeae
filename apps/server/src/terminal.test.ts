import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  accountsTable,
  chooseLogFormat,
  demoAudioProgressText,
  progressLine,
  progressSteps,
  readyBanner,
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
});
