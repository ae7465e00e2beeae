import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Database } from "../db/database.js";

/** What a start-up sweep removed. */
export type SweepResult = { orphanAudio: string[]; tempFiles: number };

/**
 * Remove what a crash can leave behind in a local data folder (decision 016): audio files no song row names,
 * and upload temp files. An upload moves its file into the store just before the transaction that inserts the
 * row, and a delete removes the file just after its transaction, so a process killed between the two leaves
 * a file nobody plays. Run before the server listens: no upload of this instance is in progress then, and
 * local audio belongs to this one instance (several instances need S3, whose bucket is never swept; their
 * temp files are still this instance's own).
 */
export async function sweepDataDir(
  database: Database,
  dataDir: string,
  opts: { localAudio: boolean },
): Promise<SweepResult> {
  const audioDir = path.join(dataDir, "audio");
  const files = opts.localAudio ? await readdir(audioDir).catch(() => [] as string[]) : [];
  const orphanAudio: string[] = [];
  if (files.length > 0) {
    const rows = await database.db.selectFrom("song").select("audio_key").where("audio_key", "is not", null).execute();
    const used = new Set(rows.map((r) => r.audio_key));
    for (const file of files) {
      if (used.has(file)) continue;
      await rm(path.join(audioDir, file), { force: true, recursive: true });
      orphanAudio.push(file);
    }
  }
  // Temp files belong to requests (or demo audio being stored) of a process that is gone.
  const tmpDir = path.join(dataDir, "tmp");
  const temps = await readdir(tmpDir).catch(() => [] as string[]);
  for (const file of temps) await rm(path.join(tmpDir, file), { force: true, recursive: true });
  return { orphanAudio, tempFiles: temps.length };
}
