import { type Artist, MESSAGES } from "@unheard/shared";
import { UserCheck, UserPlus } from "lucide-react";
import { isApiError } from "../../lib/api/api";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { useLoginPrompt, useSignedIn } from "../accounts/login-prompt";
import { useFollowArtist } from "./artists";

/** 'Follow' / 'Following' for an artist page; visitors get the login prompt, your own page shows nothing. */
export function ArtistFollowButton({ artist }: { artist: Artist }) {
  const follow = useFollowArtist(artist.id);
  const promptLogin = useLoginPrompt();
  const signedIn = useSignedIn();
  if (artist.isSelf) return null;

  const toggle = () => {
    if (!follow.isPending) signedIn(MESSAGES.loginToFollow, () => void send());
  };
  const send = async () => {
    const want = !artist.isFollowing;
    try {
      await follow.mutateAsync(want);
      toast.success(want ? MESSAGES.following : MESSAGES.unfollowed, { id: `follow:${artist.id}` });
    } catch (err) {
      // The session may have ended since the page loaded: same prompt as for a visitor.
      if (isApiError(err) && err.status === 401) promptLogin(err.message || MESSAGES.loginToFollow);
      else handleError(err, MESSAGES.followFailed);
    }
  };

  return (
    <Button
      variant={artist.isFollowing ? "secondary" : "primary"}
      // Inactive only while a change is on its way, so a double click cannot send both states; aria-disabled, not
      // disabled, so a keyboard user's focus stays on it.
      aria-disabled={follow.isPending || undefined}
      className="aria-disabled:opacity-50"
      icon={
        artist.isFollowing ? (
          <UserCheck aria-hidden className="size-4 text-violet-300" />
        ) : (
          <UserPlus aria-hidden className="size-4" />
        )
      }
      onClick={() => void toggle()}
    >
      {artist.isFollowing ? "Following" : "Follow"}
    </Button>
  );
}
