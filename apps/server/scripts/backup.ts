// npm run backup [-- <folder>]: a consistent copy of the SQLite database and the audio store while the server
// runs, into <folder> or unheard-<time> in a backups folder beside DATA_DIR (decision 016). PostgreSQL: pg_dump,
// see the README.
import { existsSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../src/config.js";
import { backupDataDir, backupName } from "../src/lib/backup.js";

if (existsSync(".env")) process.loadEnvFile(".env");
const config = loadConfig();
if (config.databaseUrl) {
  console.error("unheard: DATABASE_URL is set: back up PostgreSQL with pg_dump (README, Backups).");
  process.exit(1);
}
const target = path.resolve(process.argv[2] ?? path.join(path.dirname(config.dataDir), "backups", backupName()));
try {
  const m = await backupDataDir(config.dataDir, target);
  console.log(
    `Backup of ${config.dataDir} written to ${target}: ${m.songs} songs, ${m.users} members, ${m.audioFiles} audio files, ` +
      `${(m.bytes / 1024 / 1024).toFixed(1)} MB in ${m.seconds} s.`,
  );
  if (config.s3)
    console.log("Audio is in the S3 bucket and is not part of this backup: back the bucket up on its own.");
  if (m.missingAudio.length > 0)
    console.warn(`${m.missingAudio.length} songs were deleted while the backup ran; their audio is not in it.`);
} catch (err) {
  console.error(`unheard: backup failed: ${(err as Error).message}`);
  process.exit(1);
}
