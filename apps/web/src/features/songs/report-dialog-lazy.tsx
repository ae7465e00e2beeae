import { lazyDialog } from "../../ui/lazy-dialog";

/** The report dialog (report-dialog.tsx), loaded on first open. */
export const ReportDialog = lazyDialog(() => import("./report-dialog").then((m) => m.ReportDialog));
