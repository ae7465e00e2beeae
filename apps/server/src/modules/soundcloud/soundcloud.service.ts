import { MESSAGES, type SoundcloudTrack } from "@unheard/shared";
import { AppError } from "../../errors.js";

type RawTrack = {
  id?: unknown;
  title?: unknown;
  permalink_url?: unknown;
  artwork_url?: unknown;
  duration?: unknown;
  user?: { username?: unknown };
};

/** Spec §7 searchSoundCloudMatches: tracks on SoundCloud for an artist and title. */
export function createSoundcloudService(deps: { clientId: string | undefined; apiUrl: string; timeoutMs: number }) {
  return {
    async matches(artist: string, title: string): Promise<SoundcloudTrack[]> {
      if (!deps.clientId) throw new AppError("unavailable", MESSAGES.soundcloudNotConfigured);
      const url = new URL(`${deps.apiUrl}/search/tracks`);
      url.searchParams.set("q", `${artist} ${title}`);
      url.searchParams.set("client_id", deps.clientId);
      url.searchParams.set("limit", "10");
      let body: unknown;
      try {
        const res = await fetch(url, {
          signal: AbortSignal.timeout(deps.timeoutMs),
          headers: { accept: "application/json" },
        });
        if (!res.ok) throw new Error(`SoundCloud answered ${res.status}`);
        body = await res.json();
      } catch {
        throw new AppError("bad_gateway", MESSAGES.soundcloudFailed);
      }
      const list = Array.isArray(body)
        ? body
        : Array.isArray((body as { collection?: unknown })?.collection)
          ? (body as { collection: unknown[] }).collection
          : undefined;
      if (!list) throw new AppError("bad_gateway", MESSAGES.soundcloudFailed);
      return (list as RawTrack[])
        .filter((t) => typeof t?.id === "number" && typeof t.title === "string" && typeof t.permalink_url === "string")
        .map((t) => ({
          id: t.id as number,
          title: t.title as string,
          permalink_url: t.permalink_url as string,
          artwork_url: typeof t.artwork_url === "string" ? t.artwork_url : null,
          user: { username: typeof t.user?.username === "string" ? t.user.username : "" },
          duration: typeof t.duration === "number" ? t.duration : 0,
        }));
    },
  };
}

/** The SoundCloud service type. */
export type SoundcloudService = ReturnType<typeof createSoundcloudService>;
