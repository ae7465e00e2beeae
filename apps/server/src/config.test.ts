import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, loadConfig } from "./config.js";

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(path.join(tmpdir(), "unheard-cfg-"));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("config", () => {
  it("has defaults that need no setup, and keeps a generated secret", () => {
    const dir = tempDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      waitlistGate: true,
      seedDemo: true,
      publicUrl: "http://localhost:3000",
    });
    expect(config.authSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dir, "auth-secret"), "utf8").trim()).toBe(config.authSecret);
    // Same secret on the next start, so sessions survive restarts.
    expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(config.authSecret);
  });

  it("reads every documented setting", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATA_DIR: tempDir(),
      DATABASE_URL: "postgres://u:p@db:5432/unheard",
      PUBLIC_URL: "https://unheard.example/",
      AUTH_SECRET: "s".repeat(40),
      SUPER_ADMIN_EMAIL: "Boss@Example.com",
      SMTP_URL: "smtp://mail:25",
      MAIL_FROM: "Unheard <hi@unheard.example>",
      WAITLIST_GATE: "false",
      SEED_DEMO: "0",
    });
    expect(config).toMatchObject({
      port: 8080,
      host: "0.0.0.0",
      databaseUrl: "postgres://u:p@db:5432/unheard",
      publicUrl: "https://unheard.example",
      superAdminEmail: "boss@example.com",
      smtpUrl: "smtp://mail:25",
      waitlistGate: false,
      seedDemo: false,
    });
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://x"],
    ["PUBLIC_URL", "not a url"],
    ["AUTH_SECRET", "short"],
    ["SUPER_ADMIN_EMAIL", "not-an-email"],
    ["SMTP_URL", "http://mail"],
    ["WAITLIST_GATE", "maybe"],
  ])("names the bad variable %s=%s", (name, value) => {
    expect(() => loadConfig({ DATA_DIR: tempDir(), [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tempDir(), [name]: value })).toThrow(new RegExp(`^Invalid ${name}:`));
  });

  it("documents every setting in .env.example and the README", () => {
    const root = path.resolve(serverDir, "../..");
    const example = readFileSync(path.join(root, ".env.example"), "utf8");
    const readme = readFileSync(path.join(root, "README.md"), "utf8");
    // NODE_ENV and WEB_DIST are for the tooling, not for operators.
    for (const name of CONFIG_VARIABLES.filter((n) => n !== "NODE_ENV" && n !== "WEB_DIST")) {
      expect(example, `${name} in .env.example`).toMatch(new RegExp(`^${name}=`, "m"));
      expect(readme, `${name} in README`).toContain(`\`${name}\``);
    }
  });

  it("makes the server exit with one clear line on a bad setting", () => {
    const dir = tempDir();
    const res = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: serverDir,
      env: { ...process.env, DATA_DIR: dir, PORT: "not-a-port" },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(res.status).toBe(1);
    const lines = res.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^unheard: Invalid PORT/);
    expect(existsSync(path.join(dir, "unheard.db"))).toBe(false);
  });
});
