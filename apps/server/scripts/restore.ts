// npm run restore -- <backup folder> [--force]: put a backup made by `npm run backup` into DATA_DIR. Stop the
// server first. A DATA_DIR that already holds a database or audio is refused unless --force (decision 016).
import { existsSync } from "node:fs";
import path from "node:path";
import { loadConfig } from "../src/config.js";
import { restoreDataDir } from "../src/lib/backup.js";

if (existsSync(".env")) process.loadEnvFile(".env");
const args = process.argv.slice(2);
const force = args.includes("--force");
const backup = args.find((a) => !a.startsWith("--"));
if (!backup) {
  console.error("usage: npm run restore -- <backup folder> [--force]");
  process.exit(2);
}
const config = loadConfig();
if (config.databaseUrl) {
  console.error("unheard: DATABASE_URL is set: restore PostgreSQL with pg_restore (README, Backups).");
  process.exit(1);
}
try {
  const m = await restoreDataDir(path.resolve(backup), config.dataDir, { force });
  console.log(
    `Restored the backup of ${m.createdAt} into ${config.dataDir}: ${m.songs} songs, ${m.users} members, ${m.audioFiles} audio files.`,
  );
} catch (err) {
  console.error(`unheard: restore failed: ${(err as Error).message}`);
  process.exit(1);
}
