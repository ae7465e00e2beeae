// npm run fingerprint:backfill: index every song with audio that has no fingerprints yet (or older-preset ones).
import { existsSync } from "node:fs";
import { INVARIANT_INDEX } from "@unheard/fingerprint";
import { loadConfig } from "../src/config.js";
import { migrateToLatest } from "../src/db/migrate.js";
import { openConfiguredDatabase } from "../src/db/open.js";
import { createJobQueue } from "../src/lib/jobs.js";
import { createStorage } from "../src/lib/storage.js";
import { createFingerprintsRepo } from "../src/modules/fingerprints/fingerprints.repo.js";
import { createFingerprintsService } from "../src/modules/fingerprints/fingerprints.service.js";
import { createTripletsRepo } from "../src/modules/fingerprints/triplets.repo.js";

if (existsSync(".env")) process.loadEnvFile(".env");
const config = loadConfig();
const database = openConfiguredDatabase(config);
const quiet = { info() {}, warn() {}, error() {} } as unknown as Parameters<typeof createJobQueue>[0]["log"];

/** A one-line progress bar that rewrites itself on a terminal and prints every 10% otherwise. */
function progress(done: number, total: number, label: string): void {
  const width = 30;
  const filled = total === 0 ? width : Math.round((done / total) * width);
  const line = `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} ${label}`.slice(0, 100);
  if (process.stdout.isTTY) process.stdout.write(`\r${line.padEnd(100)}`);
  else if (done === total || done % Math.max(1, Math.ceil(total / 10)) === 0) console.log(line);
}

try {
  await migrateToLatest(database.db);
  const repo = createFingerprintsRepo(database);
  const jobs = createJobQueue({ database, log: quiet });
  const fingerprints = createFingerprintsService({
    database,
    repo,
    triplets: createTripletsRepo(database),
    storage: createStorage(config),
    jobs,
  });
  const todo = await repo.unindexed(fingerprints.preset.name, INVARIANT_INDEX.name);
  console.log(`Fingerprinting ${todo.length} song(s) with the '${fingerprints.preset.name}' preset`);
  const started = Date.now();
  let failed = 0;
  for (const [i, song] of todo.entries()) {
    progress(i, todo.length, song.title);
    try {
      await fingerprints.indexSong(song.id);
    } catch (err) {
      failed++;
      console.error(`\n${song.title}: ${(err as Error).message}`);
    }
  }
  progress(todo.length, todo.length, "done");
  if (process.stdout.isTTY) process.stdout.write("\n");
  console.log(
    `Indexed ${todo.length - failed}/${todo.length} in ${((Date.now() - started) / 1000).toFixed(1)} s${failed ? `, ${failed} failed` : ""}`,
  );
  process.exitCode = failed ? 1 : 0;
} finally {
  await database.close();
}
