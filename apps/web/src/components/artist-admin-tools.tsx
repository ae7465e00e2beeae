import { useQueryClient } from "@tanstack/react-query";
import { type Artist, MESSAGES, SEARCH_DEBOUNCE_MS } from "@unheard/shared";
import { clsx } from "clsx";
import { BadgeCheck, Check, Link2, Merge, Search, ShieldCheck } from "lucide-react";
import { type ReactNode, useEffect, useId, useState } from "react";
import { useNavigate } from "react-router";
import { useAdminUsers } from "../api/admin";
import {
  refreshAfterFold,
  useArtistSearch,
  useClaimArtist,
  useMergeArtist,
  useSetArtistVerified,
} from "../api/artists";
import { handleError } from "../api/handle-error";
import { useMe } from "../api/me";
import { plural } from "../lib/format";
import { toast } from "../lib/toast";
import { ArtistAvatar } from "./artist-avatar";
import { Button } from "./button";
import { SwitchRow } from "./notification-switch";
import { Panel } from "./page";
import { DialogFrame } from "./reason-dialog";

function useDebounced(value: string, ms = SEARCH_DEBOUNCE_MS): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/** Admin tools on an artist page: verify (super admins), merge (super admins), link to an account (admins). */
export function ArtistAdminTools({ artist }: { artist: Artist }) {
  const { me } = useMe();
  const setVerified = useSetArtistVerified(artist.id);
  const [dialog, setDialog] = useState<"merge" | "claim" | null>(null);
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
                onClick={() => setDialog("merge")}
              >
                Merge into…
              </Button>
            ) : null}
            <Button
              variant="secondary"
              size="sm"
              icon={<Link2 aria-hidden className="size-4" />}
              onClick={() => setDialog("claim")}
            >
              Link to account…
            </Button>
          </div>
        </div>
      ) : isSuper ? null : (
        <p className="text-sm text-zinc-400">This profile belongs to an account; there is nothing to merge or link.</p>
      )}
      {isSuper && artist.isPlaceholder ? (
        <MergeDialog artist={artist} open={dialog === "merge"} onOpenChange={(o) => setDialog(o ? "merge" : null)} />
      ) : null}
      {artist.isPlaceholder ? (
        <ClaimDialog artist={artist} open={dialog === "claim"} onOpenChange={(o) => setDialog(o ? "claim" : null)} />
      ) : null}
    </Panel>
  );
}

type Choice = { id: string; title: string; detail: ReactNode; initial: string };

/** Search box, a list of choices, and a confirm button: the frame of the merge and link dialogs. */
function PickerDialog({
  open,
  onOpenChange,
  title,
  description,
  searchLabel,
  query,
  onQueryChange,
  choices,
  loading,
  emptyText,
  confirmLabel,
  summary,
  busy,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  searchLabel: string;
  query: string;
  onQueryChange: (q: string) => void;
  choices: Choice[];
  loading: boolean;
  emptyText: string;
  confirmLabel: string;
  summary: (choice: Choice) => ReactNode;
  busy: boolean;
  onConfirm: (choice: Choice) => void;
}) {
  const [picked, setPicked] = useState<Choice | null>(null);
  const listId = useId();
  // Every opening starts from a blank search.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new opening resets the dialog.
  useEffect(() => {
    if (!open) return;
    onQueryChange("");
    setPicked(null);
  }, [open]);

  return (
    <DialogFrame
      open={open}
      onOpenChange={(next) => {
        if (!busy) onOpenChange(next);
      }}
      title={title}
      description={description}
    >
      <div className="flex flex-col gap-4">
        <div className="relative">
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3.5 size-4 -translate-y-1/2 text-zinc-500"
          />
          <input
            type="search"
            value={query}
            onChange={(e) => onQueryChange(e.target.value)}
            aria-label={searchLabel}
            aria-controls={listId}
            placeholder={searchLabel}
            className="h-11 w-full rounded-xl border border-white/10 bg-zinc-950/60 pr-3 pl-10 text-[15px] text-zinc-100 placeholder:text-zinc-500 hover:border-white/20 focus:border-violet-400/60 focus:outline-none focus-visible:ring-2 focus-visible:ring-violet-400/70"
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
            <li className="px-1 py-3 text-sm text-zinc-500">{loading ? "Searching…" : emptyText}</li>
          ) : null}
        </ul>
        {picked ? <p className="text-sm text-zinc-300">{summary(picked)}</p> : null}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={() => onOpenChange(false)} disabled={busy}>
            Cancel
          </Button>
          <Button disabled={!picked} loading={busy} onClick={() => picked && onConfirm(picked)}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </DialogFrame>
  );
}

/** Merge this placeholder into another artist, chosen through the site search (super admins). */
function MergeDialog({
  artist,
  open,
  onOpenChange,
}: {
  artist: Artist;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [query, setQuery] = useState("");
  const term = useDebounced(query);
  const search = useArtistSearch(open ? term : "");
  const merge = useMergeArtist(artist.id);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const choices: Choice[] = (term.trim() ? (search.data ?? []) : [])
    .filter((a) => a.id !== artist.id)
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

  const confirm = async (choice: Choice) => {
    try {
      await merge.mutateAsync(choice.id);
    } catch (err) {
      handleError(err, "Failed to merge artists");
      return;
    }
    onOpenChange(false);
    toast.success(MESSAGES.artistsMerged);
    // The merged profile is gone: its songs and followers are on the kept artist's page now.
    await navigate(`/artists/${encodeURIComponent(choice.id)}`, { replace: true });
    refreshAfterFold(queryClient, artist.id, choice.id);
  };

  return (
    <PickerDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Merge into…"
      description={`Fold ${artist.name} into another artist: songs and followers move there and this placeholder is removed.`}
      searchLabel="Search artists"
      query={query}
      onQueryChange={setQuery}
      choices={choices}
      loading={search.isFetching}
      emptyText={term.trim() ? "No other artist matches." : "Type an artist's name."}
      confirmLabel="Merge"
      summary={(c) => (
        <>
          <span className="font-medium text-white">{artist.name}</span> will be merged into{" "}
          <span className="font-medium text-white">{c.title}</span>. This cannot be undone.
        </>
      )}
      busy={merge.isPending}
      onConfirm={(c) => void confirm(c)}
    />
  );
}

/** Link this placeholder's songs to a real account, chosen from the users table (admins). */
function ClaimDialog({
  artist,
  open,
  onOpenChange,
}: {
  artist: Artist;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [query, setQuery] = useState("");
  const term = useDebounced(query).trim();
  const users = useAdminUsers(open && term ? term : "");
  const claim = useClaimArtist(artist.id);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const choices: Choice[] = (term ? (users.data ?? []) : []).map((u) => ({
    id: u.id,
    title: u.username,
    initial: u.username.slice(0, 1),
    detail: u.email,
  }));

  const confirm = async (choice: Choice) => {
    try {
      await claim.mutateAsync(choice.id);
    } catch (err) {
      handleError(err, "Failed to link the artist profile");
      return;
    }
    onOpenChange(false);
    toast.success(MESSAGES.artistClaimed);
    // The account now is the artist, and its page carries the songs.
    await navigate(`/artists/${encodeURIComponent(choice.id)}`, { replace: true });
    refreshAfterFold(queryClient, artist.id, choice.id);
  };

  return (
    <PickerDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Link to account…"
      description={`Give ${artist.name}'s songs and followers to a registered account, which becomes an artist.`}
      searchLabel="Search users"
      query={query}
      onQueryChange={setQuery}
      choices={choices}
      loading={users.isFetching}
      emptyText={term ? "No user matches." : "Type a username or e-mail."}
      confirmLabel="Link account"
      summary={(c) => (
        <>
          <span className="font-medium text-white">{artist.name}</span> will be linked to{" "}
          <span className="font-medium text-white">{c.title}</span>. This cannot be undone.
        </>
      )}
      busy={claim.isPending}
      onConfirm={(c) => void confirm(c)}
    />
  );
}
