import { IMPORT_MESSAGES } from "@unheard/shared";
import { clsx } from "clsx";
import { FileUp, Link2 } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { AccessDenied } from "../../app/guards";
import { PageHeader } from "../../ui/page";
import { useMe } from "../accounts/me";
import { FileImporter } from "./file-importer";
import { LinkedTrackers } from "./linked-trackers";

/** The page's two views: a file uploaded by hand, or sheets linked and kept in sync (`?view=linked`). */
const VIEWS = [
  { view: "file", label: "Import a file", icon: FileUp, search: "" },
  { view: "linked", label: "Linked trackers", icon: Link2, search: "?view=linked" },
] as const;
type View = (typeof VIEWS)[number]["view"];

/**
 * /admin/import (admins holding canBulkImport): bring songs in from a tracker spreadsheet (a workbook, CSV or TSV),
 * or link an artist's tracker to its published sheet and keep it in sync (issue 37).
 */
export function ImportPage() {
  const { me } = useMe();
  const [params] = useSearchParams();
  if (!me?.permissions.includes("canBulkImport")) return <AccessDenied message={IMPORT_MESSAGES.noPermission} />;
  const view: View = params.get("view") === "linked" ? "linked" : "file";
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <PageHeader
        title="Import"
        documentTitle={view === "linked" ? "Linked trackers" : "Import"}
        subtitle="Bring songs in from a tracker: upload the sheet as a file, or link its published sheet and keep it in sync."
      />
      <nav aria-label="Import" className="-mt-4 md:-mt-6">
        <ul className="inline-flex max-w-full flex-wrap gap-1 rounded-3xl border border-white/10 bg-zinc-900/80 p-1">
          {VIEWS.map(({ view: v, label, icon: Icon, search }) => {
            const on = v === view;
            return (
              <li key={v}>
                <Link
                  to={{ search }}
                  preventScrollReset
                  aria-current={on ? "page" : undefined}
                  className={clsx(
                    "inline-flex h-9 items-center gap-1.5 rounded-full px-4 text-sm font-medium transition-colors",
                    "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400",
                    on ? "bg-violet-500 text-white shadow" : "text-zinc-300 hover:bg-white/5 hover:text-white",
                  )}
                >
                  <Icon aria-hidden className="size-4" />
                  {label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {view === "linked" ? <LinkedTrackers /> : <FileImporter />}
    </div>
  );
}
