import { useRef } from "react";
import { plural } from "../../lib/format";
import { LoadError } from "../../ui/list-states";
import { Panel } from "../../ui/page";
import { Spinner } from "../../ui/spinner";
import { TrackerLinkCard } from "./tracker-link-card";
import { TrackerLinkForm } from "./tracker-link-form";
import { useTrackerLinks } from "./tracker-links";

/**
 * Trackers linked to their published sheets (issue 37): the form that links one, how to publish a Google Sheet,
 * and the links, each kept in sync on its schedule and on "Sync now".
 */
export function LinkedTrackers() {
  const links = useTrackerLinks();
  const listHeading = useRef<HTMLHeadingElement>(null);
  return (
    <>
      <Panel className="flex flex-col gap-5">
        <div>
          <h2 className="text-lg font-semibold text-white">Link a tracker</h2>
          <p className="mt-1 text-sm text-zinc-400">
            The sheet is fetched on its schedule and what changed is applied: new rows are created, changed rows
            updated, rows gone from the sheet marked removed from the tracker. The first sync, and any sync that would
            remove more than a fifth of the rows, waits for your approval.
          </p>
        </div>
        <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,20rem)]">
          <TrackerLinkForm />
          <PublishHint />
        </div>
      </Panel>

      <section aria-labelledby="linked-trackers-heading" className="flex flex-col gap-4">
        <h2
          id="linked-trackers-heading"
          ref={listHeading}
          tabIndex={-1}
          className="text-lg font-semibold text-white focus:outline-none"
        >
          Linked trackers{links.data ? ` (${links.data.length.toLocaleString("en-US")})` : ""}
        </h2>
        {links.isPending ? <Spinner label="Loading the linked trackers" /> : null}
        {links.isError ? (
          <LoadError
            message="Failed to load the linked trackers"
            onRetry={() => void links.refetch()}
            retrying={links.isRefetching}
          />
        ) : null}
        {links.data?.length === 0 ? (
          <p className="text-sm text-zinc-400">No tracker is linked yet. Link one above.</p>
        ) : null}
        {links.data && links.data.length > 0 ? (
          <ul aria-label={plural(links.data.length, "linked tracker")} className="flex flex-col gap-4">
            {links.data.map((link) => (
              <TrackerLinkCard key={link.id} link={link} onUnlinked={() => listHeading.current?.focus()} />
            ))}
          </ul>
        ) : null}
      </section>
    </>
  );
}

/** How to publish a Google Sheet so it can be linked. */
function PublishHint() {
  return (
    <div className="flex flex-col gap-2 rounded-xl border border-sky-400/25 bg-sky-500/10 px-4 py-3 text-sm text-sky-100">
      <h3 className="font-semibold">Publishing a Google Sheet</h3>
      <ol className="list-decimal space-y-1 pl-5">
        <li>In the sheet, choose File → Share → Publish to the web.</li>
        <li>Pick Entire document (or one tab) and Microsoft Excel (.xlsx) or Comma-separated values (.csv).</li>
        <li>Press Publish and paste the link here.</li>
      </ol>
      <p className="text-sky-100/90">
        A normal sheet link works too when the sheet is shared publicly (anyone with the link can view). Any https
        address serving CSV or XLSX works as well.
      </p>
    </div>
  );
}
