// `npm run backup` under write load and `npm run restore` into a new data folder: a server started on the
// restored folder has every write acknowledged before the backup began (SQLite; decision 016).
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import type { BackupManifest } from "./lib/backup.js";
import { logInOverHttp, send, serverDir, smallWav, uploadOverHttp } from "./test/server-process.js";
import { serverSuite, twoMembers } from "./test/server-suite.js";

/** Run one of the server's scripts as npm would (tsx, from apps/server); its exit code and output. */
function runScript(script: string, args: string[], dataDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", `scripts/${script}.ts`, ...args], {
      cwd: serverDir,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), DATA_DIR: dataDir },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      output += d.toString();
    });
    child.on("exit", (code) => resolve({ code, output }));
  });
}

describe("backup and restore", () => {
  const suite = serverSuite("unheard-backup-");
  const root = suite.root;
  const source = path.join(root, "data");
  const restored = path.join(root, "restored");
  const backup = path.join(root, "backup");

  it("backs up a running server under write load and restores every write acknowledged before it", async () => {
    const writer = await suite.start(source);
    const { base } = writer;
    const { alice, bob } = await twoMembers(writer, "backup.test");

    // Acknowledged before the backup: uploads (with their audio bytes), favourites, a vote, a follow.
    const before: { id: string; audio: Buffer }[] = [];
    for (let i = 0; i < 6; i++) {
      const audio = smallWav(`Before ${i}`);
      const res = await uploadOverHttp(base, i % 2 ? bob.cookie : alice.cookie, `Before ${i}`, audio);
      expect(res.status).toBe(201);
      before.push({ id: ((await res.json()) as { id: string }).id, audio });
    }
    for (const song of before)
      expect((await send(base, "PUT", `/api/songs/${song.id}/favorite`, undefined, alice.cookie)).status).toBe(200);
    const voted = before[0]?.id ?? "";
    expect((await send(base, "PUT", `/api/songs/${voted}/vote`, { value: "up" }, bob.cookie)).status).toBe(200);

    // A write load that keeps going while the backup runs: uploads and favourite toggles.
    let stop = false;
    let during = 0;
    const load = (async () => {
      let n = 0;
      while (!stop) {
        const title = `During ${n++}`;
        const res = await uploadOverHttp(base, bob.cookie, title, smallWav(title)).catch(() => undefined);
        if (res?.status === 201) {
          during++;
          const { id } = (await res.json()) as { id: string };
          await send(base, "PUT", `/api/songs/${id}/favorite`, undefined, bob.cookie).catch(() => undefined);
        } else await res?.body?.cancel();
      }
    })();
    while (during < 2) await new Promise((r) => setTimeout(r, 20));

    const made = await runScript("backup", [backup], source);
    stop = true;
    await load;
    expect(made.code, made.output).toBe(0);
    expect(made.output).toContain("Backup of");
    const manifest = JSON.parse(readFileSync(path.join(backup, "manifest.json"), "utf8")) as BackupManifest;
    console.info(
      `backup under load: ${manifest.songs} songs, ${manifest.audioFiles} audio files, ${manifest.bytes} bytes in ${manifest.seconds} s (${during} uploads during the run)`,
    );
    // The copy names exactly the audio files it holds.
    const copy = new SQLite(path.join(backup, "unheard.db"), { readonly: true });
    const keys = (
      copy.prepare("select audio_key from song where audio_key is not null").all() as { audio_key: string }[]
    )
      .map((r) => r.audio_key)
      .sort();
    copy.close();
    expect(readdirSync(path.join(backup, "audio")).sort()).toEqual(keys);
    expect(manifest.audioFiles).toBe(keys.length);
    expect(manifest.songs).toBeGreaterThanOrEqual(before.length);
    await suite.stop();

    // Restore into a new folder; a second restore over it is refused unless forced.
    const first = await runScript("restore", [backup], restored);
    expect(first.code, first.output).toBe(0);
    const again = await runScript("restore", [backup], restored);
    expect(again.code).toBe(1);
    expect(again.output).toContain("--force");
    writeFileSync(path.join(restored, "marker"), "kept");
    const forced = await runScript("restore", [backup, "--force"], restored);
    expect(forced.code, forced.output).toBe(0);
    expect(existsSync(path.join(restored, "marker"))).toBe(true);

    // A server on the restored folder: the members sign in, every earlier upload plays with the same bytes,
    // and the favourites and the vote are there.
    const server = await suite.start(restored);
    const aliceAgain = await logInOverHttp(server.base, "alice@backup.test");
    expect(aliceAgain.id).toBe(alice.id);
    for (const song of before) {
      const page = await fetch(`${server.base}/api/songs/${song.id}`, { headers: { cookie: aliceAgain.cookie } });
      expect(page.status).toBe(200);
      expect(((await page.json()) as { isFavorite: boolean }).isFavorite).toBe(true);
      // Pending songs: a member hears them (visitors do not, issue 24).
      const audio = await fetch(`${server.base}/api/songs/${song.id}/audio`, {
        headers: { cookie: aliceAgain.cookie },
      });
      expect(audio.status).toBe(200);
      expect(Buffer.from(await audio.arrayBuffer()).equals(song.audio)).toBe(true);
    }
    const votedPage = await fetch(`${server.base}/api/songs/${voted}`, { headers: { cookie: aliceAgain.cookie } });
    expect(((await votedPage.json()) as { upvotes: number }).upvotes).toBe(1);
    // A session made before the backup still works: the auth secret came along.
    expect((await fetch(`${server.base}/api/me`, { headers: { cookie: alice.cookie } })).status).toBe(200);
    expect((await suite.stop()).code).toBe(0);
  }, 240_000);
});
