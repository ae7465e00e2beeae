// Backups of a SQLite data folder while the server runs, and their restore (decision 016).
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import SQLite from "better-sqlite3";

/** What a backup folder's manifest.json says. */
export type BackupManifest = {
  format: 1;
  createdAt: string;
  database: "unheard.db";
  songs: number;
  users: number;
  audioFiles: number;
  bytes: number;
  seconds: number;
  /** Audio of songs in the snapshot whose file was deleted (with its song) before it could be copied. */
  missingAudio: string[];
};

const DB_FILE = "unheard.db";

/** `unheard-2026-11-23T13-45-10Z`: a folder name that sorts by time and is valid everywhere. */
export function backupName(now = new Date()): string {
  return `unheard-${now
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/:/g, "-")}`;
}

async function isEmptyOrMissing(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw err;
  }
}

async function listFiles(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
}

/**
 * Copy the database and the audio store of `dataDir` into `target` (which must be empty or missing), safely
 * while the server writes. The database copy is `VACUUM INTO`: one read transaction, so one consistent moment,
 * that never waits for or blocks writers under WAL (the online backup API restarts whenever another connection
 * writes, and may never finish under a steady load). Audio files never change once written and are only
 * deleted with their song, so: every file present is copied first, then the snapshot is taken, then files of
 * songs committed in between are copied and files whose song is not in the snapshot are dropped. The backup
 * then holds exactly the files its rows name.
 */
export async function backupDataDir(dataDir: string, target: string): Promise<BackupManifest> {
  const started = performance.now();
  const source = path.join(dataDir, DB_FILE);
  await stat(source);
  if (!(await isEmptyOrMissing(target))) throw new Error(`${target} is not empty`);
  const audioOut = path.join(target, "audio");
  await mkdir(audioOut, { recursive: true });
  const audioIn = path.join(dataDir, "audio");

  const copied = new Set<string>();
  const copyAudio = async (name: string): Promise<boolean> => {
    try {
      await copyFile(path.join(audioIn, name), path.join(audioOut, name));
      copied.add(name);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw err;
    }
  };
  for (const name of await listFiles(audioIn)) await copyAudio(name);

  const snapshot = path.join(target, DB_FILE);
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 10000");
    db.prepare("vacuum into ?").run(snapshot);
  } finally {
    db.close();
  }

  const copy = new SQLite(snapshot, { fileMustExist: true });
  let songs: number;
  let users: number;
  const missingAudio: string[] = [];
  try {
    const keys = new Set(
      (copy.prepare("select audio_key from song where audio_key is not null").all() as { audio_key: string }[]).map(
        (r) => r.audio_key,
      ),
    );
    for (const key of keys) if (!copied.has(key) && !(await copyAudio(key))) missingAudio.push(key);
    for (const name of copied) if (!keys.has(name)) await rm(path.join(audioOut, name), { force: true });
    const integrity = copy.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new Error(`the copy failed its integrity check: ${String(integrity)}`);
    songs = (copy.prepare("select count(*) as n from song").get() as { n: number }).n;
    users = (copy.prepare('select count(*) as n from "user"').get() as { n: number }).n;
  } finally {
    copy.close();
  }

  // Sessions and e-mailed links stay valid after a restore only with the same secret.
  await copyFile(path.join(dataDir, "auth-secret"), path.join(target, "auth-secret")).catch((err) => {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  });
  let bytes = (await stat(snapshot)).size;
  const audioFiles = await listFiles(audioOut);
  for (const name of audioFiles) bytes += (await stat(path.join(audioOut, name))).size;
  const manifest: BackupManifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    database: DB_FILE,
    songs,
    users,
    audioFiles: audioFiles.length,
    bytes,
    seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
    missingAudio,
  };
  await writeFile(path.join(target, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * Put a backup into `dataDir`: the database, the audio store and the auth secret. A data folder that already
 * holds a database or audio is refused unless `force` (then those are replaced; the mail outbox stays). The
 * server must be stopped: a running one would keep writing to the file it has open.
 */
export async function restoreDataDir(
  backup: string,
  dataDir: string,
  opts: { force?: boolean } = {},
): Promise<BackupManifest> {
  const manifest = JSON.parse(await readFile(path.join(backup, "manifest.json"), "utf8")) as BackupManifest;
  if (manifest.format !== 1) throw new Error(`${backup}: unknown backup format ${String(manifest.format)}`);
  // What a restore replaces; an auth secret alone (made by reading the settings) or a mail outbox is no data.
  const hasDb = (await listFiles(dataDir)).some((f) => f === DB_FILE || f.startsWith(`${DB_FILE}-`));
  const hasAudio = (await listFiles(path.join(dataDir, "audio"))).length > 0;
  if ((hasDb || hasAudio) && !opts.force)
    throw new Error(`${dataDir} already holds a database or audio; pass --force to replace them`);
  await mkdir(dataDir, { recursive: true });
  // The old database's WAL and shared-memory files would be replayed over the restored file: remove them too.
  for (const f of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, `${DB_FILE}-journal`, "audio", "tmp"])
    await rm(path.join(dataDir, f), { recursive: true, force: true });
  const audioOut = path.join(dataDir, "audio");
  await mkdir(audioOut, { recursive: true });
  for (const name of await listFiles(path.join(backup, "audio")))
    await copyFile(path.join(backup, "audio", name), path.join(audioOut, name));
  await copyFile(path.join(backup, "auth-secret"), path.join(dataDir, "auth-secret")).catch((err) => {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  });
  // The database last: a restore cut short leaves no database, so the server cannot start on half of one.
  await copyFile(path.join(backup, DB_FILE), path.join(dataDir, `${DB_FILE}.restoring`));
  const db = new SQLite(path.join(dataDir, `${DB_FILE}.restoring`), { fileMustExist: true });
  try {
    const integrity = db.pragma("integrity_check", { simple: true });
    if (integrity !== "ok") throw new Error(`the backup's database failed its integrity check: ${String(integrity)}`);
  } finally {
    db.close();
  }
  await rename(path.join(dataDir, `${DB_FILE}.restoring`), path.join(dataDir, DB_FILE));
  return manifest;
}
