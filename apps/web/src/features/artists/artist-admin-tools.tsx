import { useQueryClient } from "@tanstack/react-query";
import { type Artist, type ArtistHit, MESSAGES } from "@unheard/shared";
import { clsx } from "clsx";
import { BadgeCheck, Check, Link2, Merge, ShieldCheck } from "lucide-react";
import { type ReactNode, useEffect, useId, useState } from "react";
import { useNavigate } from "react-router";
import { handleError } from "../../lib/api/handle-error";
import { plural } from "../../lib/format";
import { toast } from "../../lib/toast";
import { useDebounced } from "../../lib/use-debounced";
import { Button } from "../../ui/button";
import { DialogFrame } from "../../ui/dialog-frame";
import { FormActions } from "../../ui/form-actions";
import { Panel } from "../../ui/page";
import { SearchInput } from "../../ui/search-input";
import { SwitchRow } from "../../ui/switch-row";
import { useMe } from "../accounts/me";
import { type AdminUser, useAdminUsers } from "../admin/admin";
import { ArtistAvatar } from "./artist-avatar";
import { refreshAfterFold, useArtistSearch, useClaimArtist, useMergeArtist, useSetArtistVerified } from "./artists";

/**
 * Admin tools on an artist page: verify (super admins), merge (super admins), link to an account (admins holding
 * canVerifyArtists).
 */
export function ArtistAdminTools({ artist }: { artist: Artist }) {
  const { me } = useMe();
  const setVerified = useSetArtistVerified(artist.id);
  // The last dialog opened stays its mode while it closes.
  const [fold, setFold] = useState<{ mode: FoldMode; open: boolean }>({ mode: "claim", open: false });
  if (!me?.isAdmin) return null;
  const isSuper = me.isSuperAdmin;

  const toggleVerified = async (verified: boolean) => {
    try {
      await setVerified.mutateAsync(verified);
      toast.success(verified ? "Artist verified" : "Artist no longer verified");
    } catch (err) {
      handleError(err, "Failed to update verification");
    }
  };

  return (
    <Panel className="flex flex-col gap-4 border-amber-400/15 bg-amber-500/[0.03]">
      <h2 className="flex items-center gap-2 text-sm font-semibold uppercase tracking-[0.14em] text-amber-200/80">
        <ShieldCheck aria-hidden className="size-4" />
        Admin tools
      </h2>
      {isSuper ? (
        <SwitchRow
          label="Mark verified"
          description="Shows the verified badge on this artist everywhere."
          checked={artist.isVerified}
          disabled={setVerified.isPending}
          onCheckedChange={(v) => void toggleVerified(v)}
          className="max-w-md"
        />
      ) : null}
      {artist.isPlaceholder ? (
        <div className="flex flex-col gap-3 border-t border-white/[0.06] pt-4">
          <p className="text-sm text-zinc-400">
            This is a placeholder profile, created when a song credited an unknown artist name.
          </p>
          <div className="flex flex-wrap gap-2">
            {isSuper ? (
              <Button
                variant="secondary"
                size="sm"
                icon={<Merge aria-hidden className="size-4" />}
                onClick={() => setFold({ mode: "merge", open: true })}
              >
                Merge into…
              </Button>
            ) : null}
            {/* The server refuses linking without canVerifyArtists; the button mirrors it. */}
            {me.permissions.includes("canVerifyArtists") ? (
              <Button
                variant="secondary"
                size="sm"
                icon={<Link2 aria-hidden className="size-4" />}
                onClick={() => setFold({ mode: "claim", open: true })}
              >
                Link to account…
              </Button>
            ) : null}
          </div>
        </div>
      ) : isSuper ? null : (
        <p className="text-sm text-zinc-400">This profile belongs to an account; there is nothing to merge or link.</p>
      )}
      {artist.isPlaceholder ? (
        <FoldDialog
          artist={artist}
          mode={fold.mode}
          open={fold.open}
          onOpenChange={(open) => setFold((f) => ({ ...f, open }))}
        />
      ) : null}
    </Panel>
  );
}

type FoldMode = "merge" | "claim";

type Choice = { id: string; title: string; detail: ReactNode; initial: string };

/** The artists a placeholder may merge into: the search's hits but itself, with their badge and track count. */
function artistChoices(hits: ArtistHit[], selfId: string): Choice[] {
  return hits
    .filter((a) => a.id !== selfId)
    .map((a) => ({
      id: a.id,
      title: a.name,
      initial: a.initial,
      detail: (
        <>
          {a.isVerified ? <BadgeCheck aria-hidden className="mr-1 inline size-3.5 text-violet-300" /> : null}
          {plural(a.trackCount, "track")}
        </>
      ),
    }));
}

/** The accounts a placeholder may be linked to, with their e-mail. */
function userChoices(users: AdminUser[]): Choice[] {
  return users.map((u) => ({ id: u.id, title: u.username, initial: u.username.slice(0, 1), detail: u.email }));
}

/**
 * Fold this placeholder into another profile, picked through a search: 'merge' into another artist (super
 * admins, through the site search) or 'claim', linking its songs to a registered account (admins, from the users
 * table). Either way the placeholder is gone afterwards, so the page moves to the kept profile.
 */
function FoldDialog({
  artist,
  mode,
  open,
  onOpenChange,
}: {
  artist: Artist;
  mode: FoldMode;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const merge = mode === "merge";
  const [query, setQuery] = useState("");
  const [picked, setPicked] = useState<Choice | null>(null);
  const term = useDebounced(query).trim();
  const artists = useArtistSearch(open && merge ? term : "");
  const users = useAdminUsers(open && !merge && term ? term : "");
  const mergeInto = useMergeArtist(artist.id);
  const claimBy = useClaimArtist(artist.id);
  const fold = merge ? mergeInto : claimBy;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const listId = useId();
  const choices = !term ? [] : merge ? artistChoices(artists.data ?? [], artist.id) : userChoices(users.data ?? []);
  const loading = merge ? artists.isFetching : users.isFetching;
  const busy = fold.isPending;

  // Every opening starts from a blank search.
  useEffect(() => {
    if (!open) return;
    setQuery("");
    setPicked(null);
  }, [open]);

  const confirm = async (choice: Choice) => {
    try {
      await fold.mutateAsync(choice.id);
    } catch (err) {
      handleError(err, merge ? "Failed to merge artists" : "Failed to link the artist profile");
      return;
    }
    onOpenChange(false);
    toast.success(merge ? MESSAGES.artistsMerged : MESSAGES.artistClaimed);
    // The placeholder is gone: its songs and followers are on the kept artist's (or the account's) page now.
    await navigate(`/artists/${encodeURIComponent(choice.id)}`, { replace: true });
    refreshAfterFold(queryClient, artist.id, choice.id);
  };

  const searchLabel = merge ? "Search artists" : "Search users";
  return (
    <DialogFrame
      open={open}
      onOpenChange={(next) => {
        if (!busy) onOpenChange(next);
      }}
      title={merge ? "Merge into…" : "Link to account…"}
      description={
        merge
          ? `Fold ${artist.name} into another artist: songs and followers move there and this placeholder is removed.`
          : `Give ${artist.name}'s songs and followers to a registered account, which becomes an artist.`
      }
    >
      <div className="flex flex-col gap-4">
        <div className="relative">
          <SearchInput
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            aria-label={searchLabel}
            aria-controls={listId}
            placeholder={searchLabel}
            className="h-11 rounded-xl bg-zinc-950/60 pr-3 text-[15px] focus-visible:ring-violet-400/70"
          />
        </div>
        <ul
          id={listId}
          aria-label="Results"
          aria-busy={loading}
          className="flex max-h-64 flex-col gap-1.5 overflow-y-auto"
        >
          {choices.map((c) => {
            const selected = picked?.id === c.id;
            return (
              <li key={c.id}>
                <button
                  type="button"
                  aria-pressed={selected}
                  onClick={() => setPicked(c)}
                  className={clsx(
                    "flex w-full items-center gap-3 rounded-xl border px-3 py-2 text-left transition-colors",
                    "focus-visible:outline-2 focus-visible:outline-violet-400",
                    selected
                      ? "border-violet-400/60 bg-violet-500/15"
                      : "border-white/[0.06] bg-white/[0.02] hover:border-white/15",
                  )}
                >
                  <ArtistAvatar name={c.title} initial={c.initial} size="sm" className="size-9 text-sm" />
                  <span className="flex min-w-0 flex-1 flex-col">
                    <span className="truncate text-sm font-medium text-zinc-100">{c.title}</span>
                    <span className="truncate text-xs text-zinc-400">{c.detail}</span>
                  </span>
                  {selected ? <Check aria-hidden className="size-4 shrink-0 text-violet-300" /> : null}
                </button>
              </li>
            );
          })}
          {choices.length === 0 ? (
            <li className="px-1 py-3 text-sm text-zinc-500">{loading ? "Searching…" : emptyText(merge, term)}</li>
          ) : null}
        </ul>
        {picked ? (
          <p className="text-sm text-zinc-300">
            <span className="font-medium text-white">{artist.name}</span> will be {merge ? "merged into" : "linked to"}{" "}
            <span className="font-medium text-white">{picked.title}</span>. This cannot be undone.
          </p>
        ) : null}
        <FormActions cancel={() => onOpenChange(false)} busy={busy}>
          <Button disabled={!picked} loading={busy} onClick={() => picked && void confirm(picked)}>
            {merge ? "Merge" : "Link account"}
          </Button>
        </FormActions>
      </div>
    </DialogFrame>
  );
}

/** What the empty result list says: a prompt before anything is typed, else that nothing matches. */
function emptyText(merge: boolean, term: string): string {
  if (merge) return term ? "No other artist matches." : "Type an artist's name.";
  return term ? "No user matches." : "Type a username or e-mail.";
}
