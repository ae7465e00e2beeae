import { lazyDialog } from "./lazy-dialog";

/** The confirmation dialog (confirm-dialog-view.tsx), loaded on first open. */
export const ConfirmDialog = lazyDialog(() => import("./confirm-dialog-view").then((m) => m.ConfirmDialog));
