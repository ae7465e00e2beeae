import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect } from "react";
import { patchSong } from "../../lib/api/live";
import { createMediaSession } from "./media-session";
import { onPlayCounted, pause, playerState, restorePlayer, subscribePlayer, useHasQueue } from "./player-store";
import { installShortcuts } from "./shortcuts";

/** The bar (and its queue panel) load once there is something to play. */
const PlayerBar = lazy(() => import("./player-bar").then((m) => ({ default: m.PlayerBar })));

/**
 * The player's place in the shell: brings back the last visit's queue, listens for the keyboard shortcuts, keeps
 * the lock screen (Media Session) in step, puts counted plays into the song's cached copy, and shows the bar.
 */
export function PlayerHost() {
  const hasQueue = useHasQueue();
  const queryClient = useQueryClient();
  useEffect(() => {
    restorePlayer();
    const stopKeys = installShortcuts();
    const media = createMediaSession();
    media(playerState());
    const stopMedia = subscribePlayer(() => media(playerState()));
    const stopCounts = onPlayCounted((songId, playCount) => patchSong(queryClient, songId, { playCount }));
    return () => {
      stopKeys();
      stopMedia();
      stopCounts();
      // The shell is leaving (the landing page has its own player): the bar goes, so the music stops with it.
      pause();
    };
  }, [queryClient]);
  if (!hasQueue) return null;
  return (
    <Suspense fallback={null}>
      <PlayerBar />
    </Suspense>
  );
}
