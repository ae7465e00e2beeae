import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";

/**
 * A built web app for the suite's server to serve (`WEB_DIST`): files by path, written before the suite's app
 * starts (call this first) and removed after it.
 */
export function useWebDist(files: Record<string, string | Buffer>): string {
  const dir = path.join(tmpdir(), `unheard-web-${randomBytes(6).toString("hex")}`);
  beforeAll(() => {
    for (const [name, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), content);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
