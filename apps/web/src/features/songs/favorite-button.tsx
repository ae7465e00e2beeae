import { MESSAGES, type Song } from "@unheard/shared";
import { clsx } from "clsx";
import { Heart } from "lucide-react";
import { isApiError } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { useLoginPrompt, useSignedIn } from "../accounts/login-prompt";
import { useSetFavorite } from "./songs";

/** Heart toggle with the favourites count; optimistic, rolled back with a toast when the server refuses. */
export function FavoriteButton({ song, size = "sm" }: { song: Song; size?: "sm" | "md" }) {
  const setFavorite = useSetFavorite();
  const promptLogin = useLoginPrompt();
  const signedIn = useSignedIn();
  const on = song.isFavorite;

  const onClick = () =>
    signedIn(MESSAGES.loginToFavorite, () =>
      setFavorite.mutate(
        { song, want: !on },
        {
          onError: (err) => {
            if (isApiError(err) && err.status === 401) promptLogin(MESSAGES.loginToFavorite);
            else handleError(err, MESSAGES.favoriteFailed);
          },
        },
      ),
    );

  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={on}
      // Named by what it shows (WCAG 2.5.3): "6 favorites: <title>", pressed or not; the title says what a press does.
      title={on ? "Remove from favorites" : "Add to favorites"}
      className={clsx(
        // relative: holds the sr-only text, which would otherwise widen a scrolling row's page (absolute, out of it).
        "relative inline-flex shrink-0 items-center gap-1.5 rounded-full border font-medium tabular-nums transition-colors",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400",
        size === "sm" ? "h-8 px-2.5 text-sm" : "h-10 px-4 text-sm",
        on
          ? "border-fuchsia-400/40 bg-fuchsia-500/15 text-fuchsia-200 hover:bg-fuchsia-500/25"
          : "border-white/10 bg-white/5 text-zinc-300 hover:bg-white/10 hover:text-white",
      )}
    >
      <Heart
        aria-hidden
        className={clsx("size-4 transition-transform", on && "scale-110 text-fuchsia-400")}
        fill={on ? "currentColor" : "none"}
      />
      <span data-testid="favorite-count">{song.favoriteCount.toLocaleString()}</span>
      <span className="sr-only">
        {song.favoriteCount === 1 ? " favorite" : " favorites"}: {song.title}
      </span>
    </button>
  );
}
