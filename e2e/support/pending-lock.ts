import { randomUUID } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { dataDir } from "./env";
import { test as base, expect } from "./fixtures";

// 'Verify All Songs' verifies every pending song on the shared server. Tests that need their songs to
// stay pending hold a shared lock; the verify-all test takes the exclusive one (a readers-writer lock
// in files, because the suite runs in several worker processes).

const lockDir = () => path.join(dataDir(), "..", "pending-locks");
const WRITER = "verify-all.lock";

function lockFiles(): string[] {
  try {
    return readdirSync(lockDir());
  } catch {
    return [];
  }
}

/** Hold while a test relies on songs staying pending; returns the release function. */
export async function holdPendingSongs(): Promise<() => void> {
  mkdirSync(lockDir(), { recursive: true });
  const file = path.join(lockDir(), `reader-${randomUUID()}.lock`);
  for (;;) {
    await expect
      .poll(() => lockFiles().includes(WRITER), { message: "verify-all to finish", timeout: 60_000 })
      .toBe(false);
    writeFileSync(file, "");
    // The writer may have arrived between the check and the write: step back and wait again.
    if (!lockFiles().includes(WRITER)) break;
    rmSync(file, { force: true });
  }
  return () => rmSync(file, { force: true });
}

/** Take the exclusive lock: waits until no test relies on pending songs; returns the release function. */
export async function holdAllSongs(): Promise<() => void> {
  mkdirSync(lockDir(), { recursive: true });
  const file = path.join(lockDir(), WRITER);
  writeFileSync(file, "");
  await expect
    .poll(() => lockFiles().filter((f) => f !== WRITER).length, {
      message: "tests that need pending songs to finish",
      timeout: 60_000,
    })
    .toBe(0);
  return () => rmSync(file, { force: true });
}

/**
 * The suite's `test`, plus `test.use({ holdsPendingSongs: true })`: such tests hold the shared lock for
 * their whole run (released even when they fail), so 'Verify All Songs' never runs in their middle.
 */
export const test = base.extend<{ holdsPendingSongs: boolean; pendingLock: undefined }>({
  holdsPendingSongs: [false, { option: true }],
  pendingLock: [
    async ({ holdsPendingSongs }, use) => {
      if (!holdsPendingSongs) {
        await use(undefined);
        return;
      }
      const release = await holdPendingSongs();
      try {
        await use(undefined);
      } finally {
        release();
      }
    },
    { auto: true },
  ],
});
