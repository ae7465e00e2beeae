// How far the background rendering of demo audio has come, in memory: /api/health reads it for the pages
// ("Audio is being prepared (120 of 284)") and the terminal prints it. Kept per database object, so apps built
// side by side in one process (tests) each see only their own rendering.
import type { DemoAudioStatus } from "@unheard/shared";
import type { Database } from "../db/database.js";

const statuses = new WeakMap<Database, DemoAudioStatus>();

/** Songs of this database that have their demo audio so far, of those waiting for it; null when none is being made. */
export function demoAudioStatus(database: Database): DemoAudioStatus | null {
  const status = statuses.get(database);
  return status ? { ...status } : null;
}

/** Record the rendering's progress; null when it has finished (or stopped). */
export function setDemoAudioStatus(database: Database, status: DemoAudioStatus | null): void {
  if (status && status.done < status.total) statuses.set(database, { done: status.done, total: status.total });
  else statuses.delete(database);
}
