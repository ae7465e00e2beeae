import { clsx } from "clsx";
import { ArrowDown, ArrowUp, AudioLines, Play, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { type DragEvent, useRef, useState } from "react";
import { Button } from "../../ui/button";
import { DialogHeader } from "../../ui/dialog-frame";
import { SwitchRow } from "../../ui/switch-row";
import { SongCover } from "../songs/song-cover";
import { clearQueue, jumpTo, moveItem, removeItem, setShortcuts, usePlayer } from "./player-store";
import { artistLine, type QueueItem } from "./queue-model";
import { SHORTCUTS } from "./shortcuts";

const smallButton =
  "grid size-8 shrink-0 place-items-center rounded-full text-zinc-400 transition-colors hover:bg-white/10 " +
  "hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400 disabled:pointer-events-none disabled:opacity-30";

/**
 * The queue as a side panel (a sheet from the foot on phones): what plays now and next, each song movable up and
 * down (buttons, or dragged with a mouse) and removable; clear; the keyboard shortcuts and their switch.
 */
export function QueuePanel({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const player = usePlayer();
  const { items, index } = player.queue;
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  // Focus follows a moved song's button, so a keyboard user can press it again; a removed song hands focus on.
  const list = useRef<HTMLOListElement>(null);
  const focusLater = (...selectors: string[]) =>
    requestAnimationFrame(() => {
      for (const selector of selectors) {
        const el = list.current?.querySelector<HTMLElement>(selector);
        if (el) return el.focus();
      }
    });

  const onMove = (from: number, to: number, which: "up" | "down") => {
    moveItem(from, to);
    const row = to;
    focusLater(`[data-row="${row}"] [data-move="${which}"]:not(:disabled)`, `[data-row="${row}"] [data-play]`);
  };
  const onRemove = (at: number) => {
    removeItem(at);
    focusLater(`[data-row="${Math.min(at, items.length - 2)}"] [data-play]`);
  };
  const onDrop = (event: DragEvent, to: number) => {
    event.preventDefault();
    if (dragFrom !== null) moveItem(dragFrom, to);
    setDragFrom(null);
  };

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-sm motion-safe:data-[state=open]:animate-[fade-in_150ms_ease-out]" />
        <Dialog.Content
          aria-describedby={undefined}
          data-testid="queue-panel"
          className={clsx(
            "fixed z-50 flex flex-col border-white/10 bg-zinc-900 shadow-2xl shadow-black/50 focus:outline-none",
            "inset-x-0 bottom-0 max-h-[85dvh] rounded-t-2xl border-t",
            "md:inset-y-0 md:right-0 md:left-auto md:max-h-none md:w-[26rem] md:rounded-none md:border-t-0 md:border-l",
            "motion-safe:data-[state=open]:animate-[fade-in_150ms_ease-out]",
          )}
        >
          <DialogHeader title="Queue" className="px-5 pt-5 pb-3" />
          <div className="min-h-0 flex-1 overflow-y-auto px-3 pb-3">
            {items.length === 0 ? (
              <p className="px-2 py-6 text-sm text-zinc-400">
                The queue is empty. Play a song or add one to the queue.
              </p>
            ) : (
              <ol ref={list} aria-label="Songs in the queue" className="flex flex-col gap-1">
                {items.map((item, i) => (
                  <li
                    key={item.key}
                    data-row={i}
                    data-testid="queue-item"
                    draggable
                    onDragStart={() => setDragFrom(i)}
                    onDragOver={(e) => e.preventDefault()}
                    onDrop={(e) => onDrop(e, i)}
                    onDragEnd={() => setDragFrom(null)}
                    aria-current={i === index ? "true" : undefined}
                    className={clsx(
                      "flex items-center gap-2 rounded-xl px-2 py-1.5",
                      i === index ? "bg-violet-500/15 ring-1 ring-violet-400/30 ring-inset" : "hover:bg-white/[0.04]",
                      dragFrom === i && "opacity-50",
                    )}
                  >
                    <QueueRow
                      item={item}
                      position={i}
                      current={i === index}
                      playing={i === index && player.playing}
                      last={i === items.length - 1}
                      onMove={onMove}
                      onRemove={onRemove}
                    />
                  </li>
                ))}
              </ol>
            )}
          </div>
          <div className="flex flex-col gap-4 border-t border-white/10 px-5 py-4">
            {items.length > 0 ? (
              <Button variant="secondary" size="sm" className="self-start" onClick={clearQueue}>
                Clear queue
              </Button>
            ) : null}
            <SwitchRow
              label="Keyboard shortcuts"
              description="Single keys work anywhere but in text fields."
              checked={player.shortcuts}
              onCheckedChange={setShortcuts}
            />
            {player.shortcuts ? (
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
                {SHORTCUTS.map((s) => (
                  <div key={s.keys} className="contents">
                    <dt className="font-mono text-zinc-300">{s.keys}</dt>
                    <dd className="text-zinc-400">{s.does}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function QueueRow({
  item,
  position,
  current,
  playing,
  last,
  onMove,
  onRemove,
}: {
  item: QueueItem;
  position: number;
  current: boolean;
  playing: boolean;
  last: boolean;
  onMove: (from: number, to: number, which: "up" | "down") => void;
  onRemove: (at: number) => void;
}) {
  const noAudio = item.audio === null;
  return (
    <>
      <button
        type="button"
        data-play
        onClick={() => jumpTo(position)}
        className="flex min-w-0 flex-1 items-center gap-3 rounded-lg text-left focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        <span className="relative shrink-0">
          <SongCover src={item.coverUrl} title={item.title} className="size-10 rounded-md" />
          <span aria-hidden className="absolute inset-0 grid place-items-center rounded-md bg-black/40">
            {playing ? (
              <AudioLines className="size-4 text-white" />
            ) : (
              <Play className="size-4 text-white" fill="currentColor" />
            )}
          </span>
        </span>
        <span className="min-w-0 flex-1">
          <span
            data-testid="queue-title"
            className={clsx("block truncate text-sm font-medium", current ? "text-violet-100" : "text-zinc-100")}
          >
            <span className="sr-only">{current ? "Now playing: " : "Play "}</span>
            {item.title}
          </span>
          <span className="block truncate text-xs text-zinc-400">
            {artistLine(item.artists)}
            {noAudio ? " · no audio, skipped" : ""}
          </span>
        </span>
      </button>
      <button
        type="button"
        data-move="up"
        aria-label={`Move ${item.title} up`}
        disabled={position === 0}
        onClick={() => onMove(position, position - 1, "up")}
        className={smallButton}
      >
        <ArrowUp aria-hidden className="size-4" />
      </button>
      <button
        type="button"
        data-move="down"
        aria-label={`Move ${item.title} down`}
        disabled={last}
        onClick={() => onMove(position, position + 1, "down")}
        className={smallButton}
      >
        <ArrowDown aria-hidden className="size-4" />
      </button>
      <button
        type="button"
        aria-label={`Remove ${item.title} from the queue`}
        onClick={() => onRemove(position)}
        className={smallButton}
      >
        <X aria-hidden className="size-4" />
      </button>
    </>
  );
}
