import { MESSAGES } from "@unheard/shared";
import { Check, Inbox, UserCheck, UserX } from "lucide-react";
import { handleError } from "../../lib/api/handle-error";
import { toast } from "../../lib/toast";
import { Button, LinkButton } from "../../ui/button";
import { type Column, DataTable } from "../../ui/data-table";
import { Pill } from "../../ui/list-states";
import { oldestFirst, QueryListPage } from "../../ui/query-list-page";
import { formatDate } from "../moderation/format";
import { useApproveWaitlistEntry, useWaitlist, type WaitlistEntry } from "./waitlist";

/** /admin/waitlist (admin): everyone waiting, oldest first, with Approve. */
export function AdminWaitlistPage() {
  const waitlist = useWaitlist();
  return (
    <QueryListPage
      title="Waitlist Management"
      subtitle={oldestFirst("person is waiting", "people are waiting", "People waiting to get into Unheard.")}
      actions={
        <LinkButton to="/admin/users" variant="secondary" size="sm">
          All users
        </LinkButton>
      }
      query={waitlist}
      loadingLabel="Loading the waitlist"
      errorMessage="Failed to load the waitlist"
      empty={{
        icon: Inbox,
        title: "Nobody is waiting.",
        text: "New sign-ups from the landing page and the waitlist form will appear here.",
      }}
    >
      {(items) => <DataTable caption="Waitlist" columns={columns} rows={items} rowKey={(e) => e.id} />}
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
      e.hasAccount ? (
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
