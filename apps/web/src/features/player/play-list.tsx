import { createContext, type ReactNode, useContext } from "react";
import type { QueueItem } from "./queue-model";

/** The songs of the list a control sits in, as queue items, made when a song of it is played. */
export type PlayListSource = () => QueueItem[];

const PlayListContext = createContext<PlayListSource | null>(null);

/** Makes the songs of a list (a feed, search results, favourites, an artist's tracks, an era) its cards' queue. */
export function PlayListProvider({ source, children }: { source: PlayListSource; children: ReactNode }) {
  return <PlayListContext.Provider value={source}>{children}</PlayListContext.Provider>;
}

/** The list the calling control is in, if any. */
export function usePlayList(): PlayListSource | null {
  return useContext(PlayListContext);
}
