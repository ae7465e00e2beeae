import type { SongVoter } from "@unheard/shared";
import { clsx } from "clsx";
import { ShieldAlert, ThumbsDown, ThumbsUp, UserCheck, UsersRound, UserX } from "lucide-react";
import { handleError } from "../../lib/api/handle-error";
import { plural } from "../../lib/format";
import { toast } from "../../lib/toast";
import { Button } from "../../ui/button";
import { type Column, DataTable } from "../../ui/data-table";
import { Notice } from "../../ui/notice";
import { Panel } from "../../ui/page";
import { useDiscountVoter, useSongVoters } from "./votes";

/**
 * Admin: who voted on a song (decision 015): each voter's account age and trust, where they signed up and voted
 * from, and the ring signals among them; an admin can discount a voter's votes from here.
 */
export function SongVotersPanel({ songId, counts, myId }: { songId: string; counts: string; myId: string }) {
  const voters = useSongVoters(songId, counts);
  const discount = useDiscountVoter(songId);
  const data = voters.data;

  const toggle = async (v: SongVoter) => {
    try {
      const res = await discount.mutateAsync({ userId: v.user.id, discounted: !v.discounted });
      toast.success(res.message);
    } catch (err) {
      handleError(err, "Could not change this member's votes");
    }
  };

  const columns: Column<SongVoter>[] = [
    {
      key: "voter",
      header: "Voter",
      rowHeader: true,
      cell: (v) => (
        <span className="flex items-center gap-2">
          {v.value === "up" ? (
            <ThumbsUp aria-label="Upvote" className="size-4 text-emerald-300" />
          ) : (
            <ThumbsDown aria-label="Downvote" className="size-4 text-rose-300" />
          )}
          <span className="font-medium text-zinc-100">{v.user.username}</span>
        </span>
      ),
    },
    {
      key: "counts",
      header: "Counts",
      cell: (v) =>
        v.counted ? (
          <span className="text-emerald-300">Counted</span>
        ) : (
          <span className="text-amber-300">{v.discounted ? "Discounted" : "Not yet"}</span>
        ),
    },
    { key: "age", header: "Account age", cell: (v) => plural(v.accountAgeDays, "day") },
    { key: "trust", header: "Trust", cell: (v) => `${v.trust.name} (${v.trust.level})` },
    {
      key: "network",
      header: "Network",
      cell: (v) => (
        <span className="font-mono text-xs text-zinc-300">
          {v.signupPrefix ?? "—"}
          {v.votePrefix && v.votePrefix !== v.signupPrefix ? ` · voted ${v.votePrefix}` : ""}
        </span>
      ),
    },
    { key: "device", header: "Device", cell: (v) => <span className="font-mono text-xs">{v.device ?? "—"}</span> },
    {
      key: "flags",
      header: "Signals",
      cell: (v) =>
        v.flags.length === 0 ? (
          <span className="text-zinc-500">None</span>
        ) : (
          <span className="inline-flex items-center gap-1 text-amber-300" title={v.flags.join("\n")}>
            <ShieldAlert aria-hidden className="size-4" />
            {plural(v.flags.length, "signal")}
          </span>
        ),
    },
    {
      key: "action",
      header: <span className="sr-only">Action</span>,
      label: "Action",
      cell: (v) =>
        v.user.id === myId || v.trust.name === "Admin" ? null : (
          <Button
            variant={v.discounted ? "secondary" : "ghost"}
            size="sm"
            loading={discount.isPending && discount.variables?.userId === v.user.id}
            icon={
              v.discounted ? <UserCheck aria-hidden className="size-4" /> : <UserX aria-hidden className="size-4" />
            }
            onClick={() => void toggle(v)}
            aria-label={`${v.discounted ? "Restore" : "Discount"} the votes of ${v.user.username}`}
          >
            {v.discounted ? "Restore" : "Discount"}
          </Button>
        ),
    },
  ];

  return (
    <Panel className="flex flex-col gap-4">
      <div>
        <h2 id="voters-heading" className="flex items-center gap-2 text-lg font-semibold text-white">
          <UsersRound aria-hidden className="size-5 text-fuchsia-300" />
          Voters
          <span className="rounded-full bg-white/5 px-2 py-0.5 text-xs font-medium text-zinc-400">Admins only</span>
        </h2>
        <p className="mt-1 text-sm text-zinc-400">
          Who voted, how old and trusted their accounts are, and where they signed up and voted from.
        </p>
      </div>
      {voters.isPending ? (
        <p className="text-sm text-zinc-500">Loading voters…</p>
      ) : voters.isError || !data ? (
        <p className="text-sm text-zinc-500">The voters could not be loaded.</p>
      ) : (
        <>
          {data.ringSuspected ? (
            <Notice tone="error">
              <p className="font-semibold">Possible vote ring</p>
              <ul className="mt-1 list-disc pl-5" data-testid="ring-signals">
                {data.signals.map((s) => (
                  <li key={s}>{s}</li>
                ))}
              </ul>
            </Notice>
          ) : null}
          {data.voters.length === 0 ? (
            <p className="text-sm text-zinc-500">Nobody has voted yet.</p>
          ) : (
            <div className={clsx(discount.isPending && "opacity-80")}>
              <DataTable columns={columns} rows={data.voters} rowKey={(v) => v.user.id} caption="Voters on this song" />
            </div>
          )}
        </>
      )}
    </Panel>
  );
}
