import { ListEnd, ListPlus } from "lucide-react";
import { toast } from "../../lib/toast";
import { addToQueue, playNext } from "./player-store";
import { type QueueItem, queueMessage } from "./queue-model";

const iconButton =
  "grid size-8 shrink-0 place-items-center rounded-full border border-white/10 bg-white/5 text-zinc-300 " +
  "transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 " +
  "focus-visible:outline-violet-400";

const textButton =
  "inline-flex h-10 items-center gap-2 rounded-full border border-white/10 bg-white/5 px-4 text-sm font-medium " +
  "text-zinc-100 transition-colors hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 " +
  "focus-visible:outline-violet-400";

/**
 * "Play next" and "Add to queue" for one song: icons on a card (named with the song's title), labelled buttons on a
 * song page. `item` is made when pressed, so a card does not build one per render.
 */
export function QueueButtons({
  title,
  item,
  variant,
}: {
  title: string;
  item: () => QueueItem;
  variant: "icons" | "labelled";
}) {
  const onNext = () => {
    const it = item();
    const said = queueMessage(it.title, "next", playNext(it));
    if (said.changed) toast.success(said.text);
    else toast.info(said.text);
  };
  const onAdd = () => {
    const it = item();
    const said = queueMessage(it.title, "end", addToQueue(it));
    if (said.changed) toast.success(said.text);
    else toast.info(said.text);
  };
  if (variant === "labelled")
    return (
      <>
        <button type="button" onClick={onNext} className={textButton}>
          <ListPlus aria-hidden className="size-4" />
          Play next
        </button>
        <button type="button" onClick={onAdd} className={textButton}>
          <ListEnd aria-hidden className="size-4" />
          Add to queue
        </button>
      </>
    );
  return (
    <>
      <button
        type="button"
        onClick={onNext}
        aria-label={`Play next: ${title}`}
        title="Play next"
        className={iconButton}
      >
        <ListPlus aria-hidden className="size-4" />
      </button>
      <button
        type="button"
        onClick={onAdd}
        aria-label={`Add to queue: ${title}`}
        title="Add to queue"
        className={iconButton}
      >
        <ListEnd aria-hidden className="size-4" />
      </button>
    </>
  );
}
