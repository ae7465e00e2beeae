import { QueryClient } from "@tanstack/react-query";
import { demoAudioProgressMessage, type Song } from "@unheard/shared";
import { afterEach, describe, expect, it, vi } from "vitest";
import { holdsSongWithoutAudio, songDetailKey } from "../../lib/api/live";
import { demoAudioKey, fetchDemoAudioStatus } from "./demo-audio";

afterEach(() => vi.unstubAllGlobals());

const song = (id: string, withAudio: boolean) =>
  ({ id, title: id, audio: withAudio ? { url: `/api/songs/${id}/audio`, durationSec: 40 } : null }) as Song;

/** /api/health answering these demo audio states in turn. */
function healthSays(...states: ({ done: number; total: number } | null)[]) {
  const queue = [...states];
  vi.stubGlobal(
    "fetch",
    vi.fn(
      async () =>
        new Response(JSON.stringify({ status: "ok", db: "sqlite", demoAudio: queue.shift() ?? null }), {
          status: 200,
          headers: { "content-type": "application/json" },
        }),
    ),
  );
}

describe("demo audio being prepared (issue 25)", () => {
  it("says how far it has come", () => {
    expect(demoAudioProgressMessage(120, 284)).toBe("120 of 284 songs ready");
  });

  it("finds the cached answers that show a song without audio", () => {
    expect(holdsSongWithoutAudio(song("a", false))).toBe(true);
    expect(holdsSongWithoutAudio(song("a", true))).toBe(false);
    expect(holdsSongWithoutAudio({ items: [song("a", true), song("b", false)] })).toBe(true);
    expect(holdsSongWithoutAudio({ pages: [{ items: [song("a", true)] }, { items: [song("b", false)] }] })).toBe(true);
    expect(holdsSongWithoutAudio({ pages: [{ items: [song("a", true)] }], pageParams: [] })).toBe(false);
    expect(holdsSongWithoutAudio({ items: [{ at: "x" }] })).toBe(false);
    expect(holdsSongWithoutAudio(undefined)).toBe(false);
  });

  it("reloads the songs still without audio each time more is ready, and once it is over", async () => {
    const client = new QueryClient();
    const waiting = ["songs", "newest"];
    const complete = ["songs", "trending"];
    client.setQueryData(waiting, { pages: [{ items: [song("a", true), song("b", false)] }], pageParams: [null] });
    client.setQueryData(complete, { pages: [{ items: [song("a", true)] }], pageParams: [null] });
    client.setQueryData(songDetailKey("b"), song("b", false));
    const stale = () =>
      [waiting, complete, songDetailKey("b")].map((key) => client.getQueryState(key)?.isInvalidated ?? false);
    const poll = async () => client.setQueryData(demoAudioKey, await fetchDemoAudioStatus(client));
    healthSays({ done: 10, total: 284 }, { done: 10, total: 284 }, { done: 40, total: 284 }, null, null);

    // The first answer: the songs on screen were just loaded.
    await poll();
    expect(client.getQueryData(demoAudioKey)).toEqual({ done: 10, total: 284 });
    expect(stale()).toEqual([false, false, false]);
    // No progress, no reload.
    await poll();
    expect(stale()).toEqual([false, false, false]);
    // More audio ready: what shows a song without audio reloads, the rest stays.
    await poll();
    expect(stale()).toEqual([true, false, true]);
    // Over: one last reload, and nothing is being prepared any more.
    client.setQueryData(waiting, { pages: [{ items: [song("a", true), song("b", false)] }], pageParams: [null] });
    client.setQueryData(songDetailKey("b"), song("b", false));
    await poll();
    expect(client.getQueryData(demoAudioKey)).toBeNull();
    expect(stale()).toEqual([true, false, true]);
    client.setQueryData(waiting, { pages: [{ items: [song("a", true), song("b", false)] }], pageParams: [null] });
    client.setQueryData(songDetailKey("b"), song("b", false));
    await poll();
    expect(stale()).toEqual([false, false, false]);
  });
});
