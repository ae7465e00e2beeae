import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Song } from "@unheard/shared";
import { api } from "../../lib/api/api";

/** GET /api/landing/tracks: the landing page's demo player (verified songs with audio). */
const landingTracksQuery = queryOptions({
  queryKey: ["landing", "tracks"] as const,
  queryFn: async () => (await api.get<{ items: Song[] }>("/api/landing/tracks")).items,
  staleTime: 5 * 60_000,
});

/** The demo tracks of the landing page. */
export function useLandingTracks() {
  return useQuery(landingTracksQuery);
}
