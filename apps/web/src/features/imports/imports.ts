import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  DEFAULT_TAG_LEGEND,
  type ImportBatch,
  type ImportBatchDetail,
  type ImportField,
  type ImportPreview,
  MESSAGES,
  type SongTag,
} from "@unheard/shared";
import { api, sendRequest } from "../../lib/api/api";
import { refreshSongLists } from "../../lib/api/live";
import { itemsQuery } from "../../lib/api/query-helpers";

/** A file to import and the choices sent with it. */
export type ImportRequest = {
  file: File;
  /** One field per column of a one-tab file (a CSV); absent on the first dry run (the server remembers or guesses). */
  mapping?: ImportField[];
  /** The same per workbook tab, by the tab's name; a tab left out is remembered or guessed. */
  mappings?: Record<string, ImportField[]>;
  /** The header row's line (1-based) of the tabs whose header the admin picked. */
  headerRows?: Record<string, number>;
  /** The tabs to import; absent: every tab that lists songs (the server decides). */
  tabs?: string[];
  asVerified: boolean;
  defaultArtist: string;
  /** What each mark before a title means; absent on the first dry run (the server's default legend). */
  legend?: ImportLegend;
};

/** What a mark before a title means: a tag, or nothing ("ignore": left out without a warning). */
export type MarkMeaning = SongTag | "ignore";
/** The sheet's legend: a mark and what it means. */
export type ImportLegend = Record<string, MarkMeaning>;

/** The bounds importOptionsSchema puts on a legend: marks per legend and characters per mark. */
const LEGEND_LIMITS = { marks: 50, markChars: 16 } as const;

/** The legend a dry run applied to the marks it found (a mark it did not know has no meaning yet). */
export function legendOf(preview: ImportPreview): ImportLegend {
  const legend: ImportLegend = {};
  for (const m of preview.marks) if (m.tag) legend[m.mark] = m.tag;
  return legend;
}

/**
 * The legend as the form sends it, within the schema's bounds: a mark too long to send is left out (it stays
 * unknown, and the dry run says so), and past 50 marks those the default legend gives the same meaning go first.
 */
function legendField(legend: ImportLegend): string {
  const entries = Object.entries(legend).filter(([mark]) => mark.length > 0 && mark.length <= LEGEND_LIMITS.markChars);
  const own = entries.filter(([mark, meaning]) => DEFAULT_TAG_LEGEND[mark] !== meaning);
  const kept =
    entries.length <= LEGEND_LIMITS.marks
      ? entries
      : [...own, ...entries.filter((e) => !own.includes(e))].slice(0, LEGEND_LIMITS.marks);
  return JSON.stringify(Object.fromEntries(kept));
}

/** Every import query (past batches, one batch) lives under this key. */
export const importsKey = ["imports"] as const;
/** The linked trackers (tracker-links.ts): an undone sync pauses its link. */
export const trackerLinksKey = ["tracker-links"] as const;

/** POST a file and its choices as multipart/form-data. */
function sendImport<T>(path: string, req: ImportRequest): Promise<T> {
  const form = new FormData();
  if (req.mapping) form.append("mapping", JSON.stringify(req.mapping));
  if (req.mappings && Object.keys(req.mappings).length > 0) form.append("mappings", JSON.stringify(req.mappings));
  if (req.headerRows && Object.keys(req.headerRows).length > 0)
    form.append("headerRows", JSON.stringify(req.headerRows));
  if (req.tabs) form.append("tabs", JSON.stringify(req.tabs));
  if (req.legend) form.append("legend", legendField(req.legend));
  if (req.asVerified) form.append("asVerified", "true");
  if (req.defaultArtist.trim()) form.append("defaultArtist", req.defaultArtist.trim());
  // Last, so the server has every field before the file.
  form.append("file", req.file, req.file.name);
  return sendRequest<T>(
    path,
    { method: "POST", headers: { accept: "application/json" }, body: form },
    MESSAGES.internal,
  );
}

/** A dry run: what importing the file would do, row by row. */
export function usePreviewImport() {
  return useMutation({ mutationFn: (req: ImportRequest) => sendImport<ImportPreview>("/api/imports/preview", req) });
}

/** Start an import; the batch comes back running (large files) or done. */
export function useRunImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (req: ImportRequest) => sendImport<ImportBatch>("/api/imports", req),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: importsKey }),
  });
}

/**
 * One batch with the dry run it was approved on or waits for (a sync's), polled every half second while it runs
 * (the progress bar).
 */
export function useImportBatch(id: string | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: [...importsKey, id],
    queryFn: async () => {
      const batch = await api.get<ImportBatchDetail>(`/api/imports/${encodeURIComponent(id ?? "")}`);
      if (batch.status !== "running" && batch.status !== "awaiting_approval") {
        void queryClient.invalidateQueries({ queryKey: [...importsKey, "list"] });
        void refreshSongLists(queryClient);
      }
      return batch;
    },
    enabled: Boolean(id),
    refetchInterval: (query) => (query.state.data?.status === "running" ? 500 : false),
  });
}

/** The newest imports and syncs. */
export function useImportBatches() {
  return useQuery(itemsQuery<ImportBatch>([...importsKey, "list"], "/api/imports"));
}

/** Undo a batch: its new songs deleted, the songs it updated restored (an undone sync pauses its link). */
export function useUndoImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.post<ImportBatch>(`/api/imports/${encodeURIComponent(id)}/undo`),
    onSuccess: (batch) => {
      void queryClient.invalidateQueries({ queryKey: importsKey });
      if (batch.source === "sync") void queryClient.invalidateQueries({ queryKey: trackerLinksKey });
      void refreshSongLists(queryClient);
    },
  });
}
