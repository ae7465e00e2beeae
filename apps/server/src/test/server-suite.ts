// A vitest suite's server processes: kept apart from server-process.ts, which the crash run uses outside vitest.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { type ServerProcess, signUpOverHttp, startServer, stopServer } from "./server-process.js";

/** A scratch folder for a suite's servers; whichever still runs is stopped, and the folder removed, after it. */
export function serverSuite(prefix: string) {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  let current: ServerProcess | undefined;
  afterAll(async () => {
    if (current) await stopServer(current, 2000);
    rmSync(root, { recursive: true, force: true });
  });
  return {
    root,
    /** Starts the production server on `dataDir` (the scratch folder by default). */
    async start(dataDir = root): Promise<ServerProcess> {
      current = await startServer(dataDir);
      return current;
    },
    /** Stops the running server: SIGTERM, then SIGKILL after `killAfterMs`. */
    async stop(killAfterMs?: number) {
      const server = current;
      current = undefined;
      if (!server) throw new Error("no server is running");
      return stopServer(server, killAfterMs);
    },
  };
}

/** Two members, alice and bob, signed up on `server` with e-mails at `domain`. */
export async function twoMembers(server: ServerProcess, domain: string) {
  return {
    alice: await signUpOverHttp(server, `alice@${domain}`),
    bob: await signUpOverHttp(server, `bob@${domain}`),
  };
}
