import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_VARIABLES, ConfigError, loadConfig, localUrl } from "./config.js";
import { readyBanner } from "./terminal.js";

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

  it("links to the address the terminal prints by default: one host name per server (issue 25)", () => {
    const urlFor = (env: Record<string, string>) => loadConfig({ DATA_DIR: tempDir(), ...env }).publicUrl;
    // Listening on loopback or on every interface: localhost, never 127.0.0.1 beside it.
    expect(urlFor({})).toBe("http://localhost:3000");
    for (const host of ["127.0.0.1", "0.0.0.0", "::", "[::]", "::1", "localhost"])
      expect(urlFor({ HOST: host, PORT: "4100" }), host).toBe("http://localhost:4100");
    // A chosen address is the one to open.
    expect(urlFor({ HOST: "192.168.1.20" })).toBe("http://192.168.1.20:3000");
    expect(urlFor({ HOST: "fd00::5", PORT: "80" })).toBe("http://[fd00::5]:80");
    expect(urlFor({ HOST: "0.0.0.0", PUBLIC_URL: "https://unheard.example/" })).toBe("https://unheard.example");
    // The banner prints exactly this address.
    const config = loadConfig({ DATA_DIR: tempDir(), HOST: "0.0.0.0", PORT: "4100" });
    expect(config.publicUrl).toBe(localUrl(config.host, config.port));
    const banner = readyBanner({ url: config.publicUrl, seconds: 1, database: "sqlite" });
    expect(banner.match(/https?:\/\/\S+/g)).toEqual(["http://localhost:4100"]);
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
