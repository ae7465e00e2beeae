// The server of bench:recognition-scale in a process of its own over the benchmark's database, optionally under
// `node --cpu-prof` (a flag NODE_OPTIONS does not take, hence this rather than api-processes' startServer).
import { keepOutput, spawnServer, stopProcess, waitUntilOk } from "../../e2e/support/server-process.js";
import { AUTH_SECRET, type Child, serverCommand } from "./api-processes.js";
import { freePort, ROOT } from "./web-server.js";

/** The production server on a free port over DATA_DIR (SQLite there); `profileDir` runs it with --cpu-prof. */
export async function startScaleServer(opts: {
  dataDir: string;
  profileDir?: string;
}): Promise<Child & { label: string }> {
  const port = await freePort();
  const { args, label } = serverCommand();
  const prof = opts.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${opts.profileDir}`] : [];
  const base = `http://127.0.0.1:${port}`;
  const child = spawnServer([...prof, ...args], {
    cwd: ROOT,
    port,
    env: {
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PUBLIC_URL: base,
      DATA_DIR: opts.dataDir,
      DATABASE_URL: "",
      SEED_DEMO: "false",
      AUTH_SECRET,
      AUTH_LIMIT_SCALE: "1000",
      WAITLIST_GATE: "false",
      SUPER_ADMIN_EMAIL: "",
      SMTP_URL: "",
      S3_BUCKET: "",
      S3_ENDPOINT: "",
      S3_ACCESS_KEY_ID: "",
      S3_SECRET_ACCESS_KEY: "",
    },
  });
  const output = keepOutput(child, 20_000);
  const stop = () => stopProcess(child, 15_000);
  // Migrations a cached database lacks run before the server listens: give them time on a large table.
  if (await waitUntilOk(`${base}/api/health`, child, { timeoutMs: 1_800_000, intervalMs: 500 }))
    return { pid: child.pid ?? 0, base, output, stop, label: `${label}${opts.profileDir ? " with --cpu-prof" : ""}` };
  await stop();
  throw new Error(`the server did not answer /api/health.\n--- output ---\n${output()}`);
}
