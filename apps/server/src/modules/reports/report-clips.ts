// Clips attached to reports (issue 39): files under $DATA_DIR/report-clips named by the report, kept only until an
// admin handles the report.
import { createReadStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

/** Where report clips live, and how they are moved in, read and removed. */
export function createReportClips(dataDir: string) {
  const dir = path.join(dataDir, "report-clips");
  // Keys are made here (report id and a known extension), never taken from a request.
  const fileOf = (key: string) => path.join(dir, path.basename(key));
  return {
    /** Move a checked temp file in as the clip of `reportId`; its key. */
    async keep(tmp: string, reportId: string, ext: string): Promise<string> {
      await mkdir(dir, { recursive: true });
      const key = `${reportId}.${ext.replace(/[^a-z0-9]/gi, "")}`;
      await rename(tmp, fileOf(key));
      return key;
    },
    /** The clip's bytes as a stream and its size, or undefined when the file is gone. */
    async open(key: string): Promise<{ stream: Readable; size: number } | undefined> {
      const file = fileOf(key);
      const info = await stat(file).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      return { stream: createReadStream(file), size: info.size };
    },
    /** Delete a clip (a missing file is fine). */
    async remove(key: string): Promise<void> {
      await rm(fileOf(key), { force: true });
    },
  };
}

/** The report clips store's type. */
export type ReportClips = ReturnType<typeof createReportClips>;
