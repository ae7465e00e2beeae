// On a first start the server renders most demo songs' audio in the background for a few minutes. Until a song
// has its file, its player says so with the progress ("Audio is being prepared (120 of 284)") instead of
// "Preview not available", and the songs on screen are reloaded as more audio is ready: no live event tells
// of it, so the progress on /api/health is polled, only while something is being made and a song waits for it.
import { type QueryClient, useQuery, useQueryClient } from "@tanstack/react-query";
import type { DemoAudioStatus, Health } from "@unheard/shared";
import { api } from "../../lib/api/api";
import { refreshSongsWithoutAudio } from "../../lib/api/live";

/** Query key of the demo audio progress (from /api/health). */
export const demoAudioKey = ["demo-audio"] as const;

/** How often the progress is asked for while audio is being made. */
export const DEMO_AUDIO_POLL_MS = 3_000;

/**
 * The demo audio progress; when it has moved on since the last answer (or ended), the cached songs without
 * audio are reloaded, so the ones that have it now show their player.
 */
export async function fetchDemoAudioStatus(queryClient: QueryClient): Promise<DemoAudioStatus | null> {
  const before = queryClient.getQueryData<DemoAudioStatus | null>(demoAudioKey);
  const status = (await api.get<Health>("/api/health")).demoAudio ?? null;
  if (before && (status === null || status.done !== before.done)) void refreshSongsWithoutAudio(queryClient);
  return status;
}

/**
 * For a song without audio: the demo audio progress while it is being made, null when nothing is (the song
 * simply has none), undefined until the server has answered. Polled only while it is being made.
 */
export function useDemoAudioStatus(): DemoAudioStatus | null | undefined {
  const queryClient = useQueryClient();
  const { data, isError } = useQuery({
    queryKey: demoAudioKey,
    queryFn: () => fetchDemoAudioStatus(queryClient),
    refetchInterval: (query) => (query.state.data ? DEMO_AUDIO_POLL_MS : false),
  });
  return isError ? null : data;
}
