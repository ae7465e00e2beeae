import type { Artist } from "@unheard/shared";
import { BadgeCheck, Pencil, Users } from "lucide-react";
import { useState } from "react";
import { useParams } from "react-router";
import { plural } from "../../lib/format";
import { Button } from "../../ui/button";
import { lazyDialog } from "../../ui/lazy-dialog";
import { usePageTitle } from "../../ui/page";
import { ResourcePage } from "../../ui/resource-page";
import { ArtistAdminTools } from "./artist-admin-tools";
import { ArtistAvatar } from "./artist-avatar";
import { ArtistChangelog } from "./artist-changelog";
import { ArtistFollowButton } from "./artist-follow-button";
import { ArtistSocialLinks } from "./artist-social-links";
import { ArtistTrackerSection } from "./artist-tracker";
import { useArtist } from "./artists";

/** The edit dialog (and its form library), loaded on first open. */
const ArtistEditDialog = lazyDialog(() => import("./artist-edit-dialog").then((m) => m.ArtistEditDialog));

/**
 * /artists/:artistId: name, badge, bio, counts, links, Follow, the edit and admin tools, the tracker (eras, table
 * or the song cards) and its Updates (issue 37).
 */
export function ArtistPage() {
  const { artistId = "" } = useParams();
  const artist = useArtist(artistId);
  return (
    <ResourcePage kind="artist" id={artistId} query={artist} title="Artist Profile">
      {/* Keyed by id: another artist's page starts with fresh dialogs and state. */}
      {(data) => <ArtistView key={artistId} artist={data} />}
    </ResourcePage>
  );
}

function ArtistView({ artist }: { artist: Artist }) {
  const [editing, setEditing] = useState(false);
  usePageTitle(artist.name);
  return (
    <div className="flex flex-col gap-8">
      <header className="relative overflow-hidden rounded-3xl border border-white/[0.06] bg-gradient-to-br from-violet-950/70 via-zinc-900/80 to-fuchsia-950/50 p-5 md:p-8">
        {/* A soft glow behind the avatar, as on the landing page. */}
        <div
          aria-hidden
          className="pointer-events-none absolute -top-24 -left-16 size-72 rounded-full bg-fuchsia-500/15 blur-3xl"
        />
        <div className="relative flex flex-col gap-5 md:flex-row md:items-center md:gap-8">
          <ArtistAvatar name={artist.name} size="lg" />
          <div className="flex min-w-0 flex-1 flex-col gap-3">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-xs font-semibold uppercase tracking-[0.14em] text-violet-200/70">Artist</span>
              {artist.isVerified ? (
                <span className="inline-flex items-center gap-1 rounded-full bg-violet-500/20 px-2.5 py-0.5 text-xs font-semibold text-violet-100 ring-1 ring-violet-400/40 ring-inset">
                  <BadgeCheck aria-hidden className="size-3.5 text-violet-300" />
                  Verified artist
                </span>
              ) : null}
              {artist.isPlaceholder ? (
                <span
                  className="inline-flex items-center rounded-full bg-white/5 px-2.5 py-0.5 text-xs font-medium text-zinc-400 ring-1 ring-white/10 ring-inset"
                  title="Created from a song's credits; not linked to an account yet"
                >
                  Unclaimed profile
                </span>
              ) : null}
            </div>
            <h1 className="text-3xl font-bold tracking-tight break-words text-white md:text-5xl">{artist.name}</h1>
            <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-zinc-300">
              <span data-testid="artist-track-count">{plural(artist.trackCount, "track")}</span>
              <span className="inline-flex items-center gap-1.5">
                <Users aria-hidden className="size-4 text-zinc-500" />
                <span data-testid="artist-follower-count">{plural(artist.followerCount, "follower")}</span>
              </span>
            </p>
            <ArtistSocialLinks links={artist.socialLinks} />
          </div>
          <div className="flex flex-wrap gap-2 md:flex-col md:items-stretch">
            <ArtistFollowButton artist={artist} />
            {artist.canEdit ? (
              <Button
                variant="secondary"
                icon={<Pencil aria-hidden className="size-4" />}
                onClick={() => setEditing(true)}
              >
                Edit profile
              </Button>
            ) : null}
          </div>
        </div>
        {artist.bio ? (
          <p className="relative mt-6 max-w-3xl text-[15px] leading-relaxed whitespace-pre-line text-zinc-300">
            {artist.bio}
          </p>
        ) : null}
      </header>

      <ArtistAdminTools artist={artist} />

      <ArtistTrackerSection artist={artist} />

      <ArtistChangelog artist={artist} />

      {artist.canEdit ? <ArtistEditDialog artist={artist} open={editing} onOpenChange={setEditing} /> : null}
    </div>
  );
}
