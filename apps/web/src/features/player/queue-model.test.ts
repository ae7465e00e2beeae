import { describe, expect, it } from "vitest";
import {
  append,
  artistLine,
  EMPTY_QUEUE,
  insertNext,
  move,
  nextPlayable,
  parseSaved,
  type QueueItem,
  queueMessage,
  queueOf,
  queueOnce,
  remove,
  serializeSaved,
} from "./queue-model";

const item = (
  id: string,
  audio: QueueItem["audio"] = { url: `/api/songs/${id}/audio`, durationSec: 60 },
): QueueItem => ({
  key: `k-${id}`,
  songId: id,
  title: `Song ${id}`,
  artists: [{ id: "a1", name: "Artist" }],
  coverUrl: `/api/songs/${id}/cover.svg`,
  audio,
});
const ids = (q: { items: QueueItem[] }) => q.items.map((i) => i.songId).join("");

describe("queue model", () => {
  it("inserts after the current song and appends at the end", () => {
    const q = queueOf([item("a"), item("b"), item("c")], 1);
    expect(ids(insertNext(q, item("x")))).toBe("abxc");
    expect(insertNext(q, item("x")).index).toBe(1);
    expect(ids(append(q, item("x")))).toBe("abcx");
    expect(insertNext(EMPTY_QUEUE, item("x"))).toMatchObject({ index: 0 });
    expect(append(EMPTY_QUEUE, item("x"))).toMatchObject({ index: 0 });
  });

  // Issue 38, decision 031: "Add to queue" of a song already queued made a second copy.
  it("holds each song once: Add to queue leaves a waiting song where it is, Play next moves it up", () => {
    const q = queueOf([item("a"), item("b"), item("c"), item("d")], 1);
    // Waiting further on: Add to queue changes nothing and says so; Play next moves it right after the current.
    expect(queueOnce(q, item("d"), "end")).toEqual({ queue: q, outcome: "already" });
    const up = queueOnce(q, item("d"), "next");
    expect(up.outcome).toBe("moved");
    expect(ids(up.queue)).toBe("abdc");
    expect(up.queue.items[up.queue.index]?.songId).toBe("b");
    // Next already: nothing to do.
    expect(queueOnce(q, item("c"), "next")).toEqual({ queue: q, outcome: "already" });
    // The song playing now stays where it is, either way.
    expect(queueOnce(q, item("b"), "end")).toEqual({ queue: q, outcome: "playing" });
    expect(queueOnce(q, item("b"), "next")).toEqual({ queue: q, outcome: "playing" });
    // Played earlier: it moves to the new place, the current song stays current, and it keeps its own key.
    const again = queueOnce(q, { ...item("a"), key: "fresh" }, "end");
    expect(again.outcome).toBe("moved");
    expect(ids(again.queue)).toBe("bcda");
    expect(again.queue.items[again.queue.index]?.songId).toBe("b");
    expect(again.queue.items.at(-1)?.key).toBe("k-a");
    const soon = queueOnce(q, item("a"), "next");
    expect(ids(soon.queue)).toBe("bacd");
    expect(soon.queue.items[soon.queue.index]?.songId).toBe("b");
    // A new song is added as before, and an empty queue takes it.
    expect(ids(queueOnce(q, item("x"), "end").queue)).toBe("abcdx");
    expect(ids(queueOnce(q, item("x"), "next").queue)).toBe("abxcd");
    expect(queueOnce(EMPTY_QUEUE, item("x"), "end")).toMatchObject({ outcome: "added", queue: { index: 0 } });
    // However often it is pressed, one copy.
    let many = q;
    for (let i = 0; i < 3; i++) many = queueOnce(many, item("x"), "end").queue;
    expect(ids(many)).toBe("abcdx");
  });

  it("tells what queueing did", () => {
    expect(queueMessage("Song", "end", "added")).toEqual({ text: "“Song” added to the queue", changed: true });
    expect(queueMessage("Song", "end", "already")).toEqual({ text: "“Song” is already in the queue", changed: false });
    expect(queueMessage("Song", "next", "already")).toEqual({ text: "“Song” already plays next", changed: false });
    expect(queueMessage("Song", "next", "moved")).toEqual({ text: "“Song” plays next", changed: true });
    expect(queueMessage("Song", "end", "moved").text).toBe("“Song” moved to the end of the queue");
    expect(queueMessage("Song", "end", "playing")).toEqual({ text: "“Song” is playing now", changed: false });
  });

  it("keeps the current song current when songs move around it", () => {
    const q = queueOf([item("a"), item("b"), item("c"), item("d")], 1);
    const moved = move(q, 3, 0);
    expect(ids(moved)).toBe("dabc");
    expect(moved.items[moved.index]?.songId).toBe("b");
    const currentMoved = move(q, 1, 3);
    expect(ids(currentMoved)).toBe("acdb");
    expect(currentMoved.index).toBe(3);
    expect(move(q, 0, 9)).toBe(q);
  });

  it("removes songs before, at and after the current one", () => {
    const q = queueOf([item("a"), item("b"), item("c")], 1);
    expect(remove(q, 0)).toMatchObject({ index: 0 });
    expect(ids(remove(q, 1))).toBe("ac");
    expect(remove(q, 1).items[remove(q, 1).index]?.songId).toBe("c");
    expect(remove(queueOf([item("a"), item("b")], 1), 1).index).toBe(0);
    expect(remove(q, 2).index).toBe(1);
    expect(remove(queueOf([item("a")], 0), 0)).toEqual(EMPTY_QUEUE);
  });

  it("passes over songs without audio, saying which", () => {
    const q = queueOf([item("a"), item("b", null), item("c", null), item("d"), { ...item("e"), audio: undefined }], 0);
    const forward = nextPlayable(q, 1, 1);
    expect(forward.index).toBe(3);
    expect(forward.skipped.map((s) => s.songId)).toEqual(["b", "c"]);
    expect(nextPlayable(q, 4, 1).index).toBe(4); // audio not known yet: tried
    expect(nextPlayable(q, 2, -1)).toMatchObject({ index: 0 });
    expect(nextPlayable(queueOf([item("a"), item("b", null)], 0), 1, 1).index).toBe(-1);
  });

  it("saves and restores the queue, position and settings, refusing what is malformed", () => {
    const saved = {
      queue: queueOf([item("a"), item("b", null), { ...item("c"), audio: undefined }], 2),
      position: 42.345,
      volume: 0.5,
      muted: true,
      shortcuts: false,
    };
    const back = parseSaved(serializeSaved(saved));
    expect(ids(back.queue)).toBe("abc");
    expect(back.queue.index).toBe(2);
    expect(back.queue.items[2]?.audio).toBeUndefined();
    expect(back).toMatchObject({ position: 42.3, volume: 0.5, muted: true, shortcuts: false });

    expect(parseSaved(null).queue).toEqual(EMPTY_QUEUE);
    expect(parseSaved("{not json").queue).toEqual(EMPTY_QUEUE);
    const hostile = JSON.stringify({
      items: [{ ...item("a"), audio: { url: "https://evil.example/x.mp3", durationSec: 1 } }, { songId: 3 }, item("b")],
      index: 99,
      volume: 7,
      position: -5,
    });
    const parsed = parseSaved(hostile);
    expect(ids(parsed.queue)).toBe("b");
    expect(parsed.queue.index).toBe(0);
    expect(parsed).toMatchObject({ volume: 1, position: 0, shortcuts: true });
  });

  it("names the artists as one line", () => {
    expect(artistLine([{ id: "1", name: "A" }])).toBe("A");
    expect(
      artistLine([
        { id: "1", name: "A" },
        { id: null, name: "B" },
        { id: "3", name: "C" },
      ]),
    ).toBe("A, B and C");
  });
});
