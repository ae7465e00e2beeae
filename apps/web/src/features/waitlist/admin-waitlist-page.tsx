import { MESSAGES } from "@unheard/shared";
import { Check, Inbox, MailQuestionMark, UserCheck, UserX } from "lucide-react";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button, LinkButton } from "../../ui/button";
import { type Column, DataTable } from "../../ui/data-table";
import { Pill } from "../../ui/list-states";
import { oldestFirst, QueryListPage } from "../../ui/query-list-page";
import { formatDate } from "../moderation/format";
import { QueueLoadMore } from "../moderation/queue-load-more";
import { useApproveWaitlistEntry, useWaitlist, type WaitlistEntry } from "./waitlist";

/** /admin/waitlist (admin): everyone waiting, oldest first, with Approve. */
export function AdminWaitlistPage() {
  const waitlist = useWaitlist();
  const subtitle = oldestFirst("person is waiting", "people are waiting", "People waiting to get into Unheard.");
  return (
    <QueryListPage
      title="Waitlist Management"
      // The whole list's count, not the rows loaded so far.
      subtitle={subtitle(waitlist.data?.total ?? 0)}
      actions={
        <LinkButton to="/admin/users" variant="secondary" size="sm">
          All users
        </LinkButton>
      }
      query={{ ...waitlist, data: waitlist.data?.items }}
      loadingLabel="Loading the waitlist"
      errorMessage="Failed to load the waitlist"
      empty={{
        icon: Inbox,
        title: "Nobody is waiting.",
        text: "People who register, or join by the waitlist form, appear here until they are let in.",
      }}
    >
      {(items) => (
        <>
          <DataTable caption="Waitlist" columns={columns} rows={items} rowKey={(e) => e.id} />
          <QueueLoadMore query={waitlist} />
        </>
      )}
    </QueryListPage>
  );
}

const columns: Column<WaitlistEntry>[] = [
  {
    key: "name",
    header: "Name",
    rowHeader: true,
    cell: (e) => <span className="font-medium break-words text-zinc-100">{e.name}</span>,
  },
  { key: "email", header: "Email", cell: (e) => <span className="break-all text-zinc-300">{e.email}</span> },
  {
    key: "date",
    header: "Joined",
    className: "whitespace-nowrap",
    cell: (e) => (
      <time dateTime={e.createdAt} className="text-zinc-400">
        {formatDate(e.createdAt)}
      </time>
    ),
  },
  {
    key: "account",
    header: "Account",
    cell: (e) =>
      e.hasAccount && !e.emailVerified ? (
        <Pill>
          <MailQuestionMark aria-hidden className="size-3" /> Registered, e-mail not verified
        </Pill>
      ) : e.hasAccount ? (
        <Pill tone="emerald">
          <UserCheck aria-hidden className="size-3" /> Registered
        </Pill>
      ) : (
        <Pill>
          <UserX aria-hidden className="size-3" /> No account yet
        </Pill>
      ),
  },
  {
    key: "actions",
    header: <span className="sr-only">Actions</span>,
    className: "md:text-right",
    cell: (e) => <ApproveButton entry={e} />,
  },
];

function ApproveButton({ entry }: { entry: WaitlistEntry }) {
  const approve = useApproveWaitlistEntry();
  const onApprove = () =>
    approve.mutate(entry.id, {
      onSuccess: (res) => {
        // No account yet is not a failure: the e-mail is remembered and starts off the waitlist later.
        if (res.userFound) toast.success(res.message);
        else toast.info(res.message, { description: `${entry.email} will be let in as soon as it registers.` });
      },
      onError: (err) => handleError(err, MESSAGES.waitlistApproveFailed),
    });
  return (
    <Button
      size="sm"
      className="w-full md:w-auto"
      icon={<Check aria-hidden className="size-4" />}
      loading={approve.isPending}
      onClick={onApprove}
      aria-label={`Approve ${entry.email}`}
    >
      Approve
    </Button>
  );
}
