import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import decode from "audio-decode";

/** Debian package holding the benchmark's music (Battle for Wesnoth soundtrack, OGG Vorbis, GPL). */
export const CORPUS_PACKAGE = "wesnoth-1.16-music";

const KNOWN_DIRS = ["/usr/share/games/wesnoth/1.16/data/core/music", "/usr/share/wesnoth/1.16/data/core/music"];

function listedByDpkg(): string[] {
  const r = spawnSync("dpkg", ["-L", CORPUS_PACKAGE], { encoding: "utf8" });
  if (r.status !== 0) return [];
  return r.stdout.split("\n").filter((p) => p.endsWith(".ogg") && existsSync(p));
}

function findFiles(): string[] {
  for (const dir of KNOWN_DIRS) {
    if (existsSync(dir)) {
      const files = readdirSync(dir).filter((f) => f.endsWith(".ogg"));
      if (files.length) return files.map((f) => join(dir, f));
    }
  }
  return listedByDpkg();
}

/** The corpus's OGG files, sorted by name; installs the package with apt-get when it is missing. */
export function corpusFiles(log: (line: string) => void): string[] {
  let files = findFiles();
  if (files.length === 0) {
    log(`Corpus not found; installing ${CORPUS_PACKAGE} with apt-get (needs root or passwordless sudo)...`);
    const asRoot = process.getuid?.() === 0;
    const [cmd, args] = asRoot
      ? ["apt-get", ["install", "-y", CORPUS_PACKAGE]]
      : ["sudo", ["-n", "apt-get", "install", "-y", CORPUS_PACKAGE]];
    try {
      execFileSync(cmd as string, args as string[], {
        stdio: "inherit",
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
    } catch {
      throw new Error(`could not install ${CORPUS_PACKAGE}; run: sudo apt-get install -y ${CORPUS_PACKAGE}`);
    }
    files = findFiles();
  }
  if (files.length === 0) throw new Error(`no .ogg files found for ${CORPUS_PACKAGE}`);
  return files.sort((a, b) => a.localeCompare(b));
}

/** Decoded audio of one file, and the wall and CPU time the decode took. */
export type Decoded = { channelData: Float32Array[]; sampleRate: number; decodeMs: number; decodeCpuMs: number };

/** Decode a whole file with the project's decoder (audio-decode, WASM). */
export async function decodeFile(path: string): Promise<Decoded> {
  const bytes = readFileSync(path);
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const audio = await decode(bytes);
  const decodeMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { ...audio, decodeMs, decodeCpuMs: (cpu.user + cpu.system) / 1000 };
}
