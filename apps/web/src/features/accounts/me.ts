import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { defaultUsername, MESSAGES, type Me, roleFlags } from "@unheard/shared";
import { useEffect, useRef } from "react";
import { api } from "../../lib/api/api";
import { applySongEvent, isSongQuery } from "../../lib/api/live";
import { toast } from "../../lib/toast";
import { applyNotificationEvent, notificationKeys } from "../notifications/notifications";

/** Query key of the signed-in user's profile; null data means a visitor. */
export const meKey = ["me"] as const;

// The last signed-in e-mail, so a failed profile load can still fall back to the spec §4 defaults.
const LAST_EMAIL_KEY = "unheard.lastEmail";

/** Remember (or forget, with null) who is signed in on this browser. */
export function rememberEmail(email: string | null): void {
  try {
    if (email) localStorage.setItem(LAST_EMAIL_KEY, email);
    else localStorage.removeItem(LAST_EMAIL_KEY);
  } catch {
    // Storage can be unavailable (private mode); the fallback is a nicety.
  }
}

function lastEmail(): string | null {
  try {
    return localStorage.getItem(LAST_EMAIL_KEY);
  } catch {
    return null;
  }
}

/** The spec §4 default profile for a signed-in user whose profile could not be loaded. */
export function defaultMe(email: string): Me {
  return {
    id: "",
    email,
    username: defaultUsername(email),
    role: "user",
    points: 0,
    bio: "",
    isPublic: false,
    isArtist: false,
    isVerified: false,
    isEmailVerified: true,
    uploadCount: 0,
    offWaitlist: false,
    socialLinks: { instagram: null, twitter: null, website: null },
    createdAt: "",
    trust: { level: 0, name: "New", score: 0, strikes: 0, votesCount: false, note: null, caps: null },
    ...roleFlags("user"),
    permissions: [],
    waitlisted: false,
  };
}

/**
 * Who is signed in: GET /api/session, which answers a visitor with `{ user: null }`. A visitor is an answer, not an
 * error: asking /api/me, whose 401 the browser logs on every visitor's page, was (issue 38).
 */
async function fetchMe(): Promise<Me | null> {
  const { user } = await api.get<{ user: Me | null }>("/api/session");
  rememberEmail(user?.email ?? null);
  return user;
}

// zod and the shared schemas are not part of the first load: the 'me' event's schema is fetched when one arrives.
let meSchemaModule: Promise<typeof import("./me-schema")> | undefined;
const loadMeSchema = () => {
  meSchemaModule ??= import("./me-schema");
  return meSchemaModule;
};

/** The ['me'] query: loaded on start, refreshed on focus and reconnect like any query. */
export const meQuery = queryOptions({ queryKey: meKey, queryFn: fetchMe, staleTime: 60_000, retry: 1 });

/** What the app knows about the current user. */
export type CurrentUser = {
  /** The profile, or null for a visitor (also while loading). */
  me: Me | null;
  /** True until the first answer (a profile or "visitor") arrives. */
  isLoading: boolean;
  /** True when the profile failed to load and defaults are shown. */
  isFallback: boolean;
};

/** The signed-in user (React Query ['me']); `{ user: null }` means a visitor. */
export function useMe(): CurrentUser {
  const q = useQuery(meQuery);
  if (q.data !== undefined) return { me: q.data, isLoading: false, isFallback: false };
  if (q.isError) {
    const email = lastEmail();
    return { me: email ? defaultMe(email) : null, isLoading: false, isFallback: Boolean(email) };
  }
  return { me: null, isLoading: true, isFallback: false };
}

/**
 * Keeps ['me'] live: toasts a failed load once, and listens to the server's event stream, which pushes
 * the full profile whenever points, role or uploads change (signed in) and song changes to every open page.
 */
export function useLiveMe(): void {
  const queryClient = useQueryClient();
  const q = useQuery(meQuery);
  const meId = q.data?.id;
  // Visitors get song updates too; the stream reopens on sign-in so the server knows who listens.
  const streamKey = q.data === undefined ? undefined : (meId ?? "visitor");

  useEffect(() => {
    if (q.isError) toast.error(MESSAGES.profileLoadFailed, { id: "me-load-failed" });
  }, [q.isError]);

  const opened = useRef(false);
  useEffect(() => {
    if (!streamKey || typeof EventSource === "undefined") return;
    opened.current = false;
    const source = new EventSource("/api/events");
    let closed = false;
    const onMe = (e: MessageEvent<string>) => {
      let data: unknown;
      try {
        data = JSON.parse(e.data);
      } catch {
        // A malformed event is ignored; the next one or a refetch corrects the cache.
        return;
      }
      // Events resolve in arrival order: they all wait on the same module promise.
      loadMeSchema().then(
        ({ meSchema }) => {
          const parsed = meSchema.safeParse(data);
          if (parsed.success && !closed) queryClient.setQueryData(meKey, parsed.data);
        },
        () => {
          // The chunk failed to load (offline): as above, a refetch on reconnect corrects the cache.
          meSchemaModule = undefined;
        },
      );
    };
    const onSong = (e: MessageEvent<string>) => {
      try {
        applySongEvent(queryClient, JSON.parse(e.data));
      } catch {
        // As above.
      }
    };
    // The unread count of the signed-in user's bell, sent on a new notification and on mark-read.
    const onNotification = (e: MessageEvent<string>) => {
      try {
        applyNotificationEvent(queryClient, JSON.parse(e.data));
      } catch {
        // As above.
      }
    };
    // After a dropped connection, changes may have been missed: reload once it is back.
    const onOpen = () => {
      if (opened.current) {
        if (streamKey !== "visitor") {
          void queryClient.invalidateQueries({ queryKey: meKey });
          void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
        }
        void queryClient.invalidateQueries({ predicate: (query) => isSongQuery(query.queryKey) });
      }
      opened.current = true;
    };
    source.addEventListener("me", onMe);
    source.addEventListener("song", onSong);
    source.addEventListener("notification", onNotification);
    source.addEventListener("open", onOpen);
    return () => {
      closed = true;
      source.removeEventListener("me", onMe);
      source.removeEventListener("song", onSong);
      source.removeEventListener("notification", onNotification);
      source.removeEventListener("open", onOpen);
      source.close();
    };
  }, [streamKey, queryClient]);
}
