// A published tracker sheet on a local HTTP server (issue 37): what a sync fetches, changed between fetches by the
// test, with ETag validators, a status or redirect to answer with, and counts of what it was asked.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The sheet a test serves and what it saw. */
export type SheetServer = {
  /** The sheet's address (http://127.0.0.1:port/sheet.csv). */
  url: string;
  /** What it serves now: the body and its type. */
  body: Buffer | string;
  contentType: string;
  /** Answer with this status instead (404, 500), or redirect to this address. */
  status: number;
  redirectTo: string | null;
  /** Send an ETag and answer If-None-Match with 304 (on by default). */
  etags: boolean;
  /** Requests answered with the body, with 304, and every request. */
  fetched: number;
  notModified: number;
  requests: number;
  close(): Promise<void>;
};

/** Start a sheet server on 127.0.0.1 serving `body`. */
export async function startSheetServer(
  body: string | Buffer,
  contentType = "text/csv; charset=utf-8",
): Promise<SheetServer> {
  const state = {
    body,
    contentType,
    status: 200,
    redirectTo: null as string | null,
    etags: true,
    fetched: 0,
    notModified: 0,
    requests: 0,
  };
  const server = http.createServer((req, res) => {
    state.requests++;
    if (state.redirectTo) {
      res.writeHead(302, { location: state.redirectTo }).end();
      return;
    }
    if (state.status !== 200) {
      res.writeHead(state.status, { "content-type": "text/plain" }).end("nope");
      return;
    }
    const etag = `"${createHash("sha256").update(state.body).digest("hex").slice(0, 16)}"`;
    if (state.etags && req.headers["if-none-match"] === etag) {
      state.notModified++;
      res.writeHead(304, { etag }).end();
      return;
    }
    state.fetched++;
    res.writeHead(200, { "content-type": state.contentType, ...(state.etags ? { etag } : {}) }).end(state.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/sheet.csv`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** The environment that lets a test app fetch sheets from 127.0.0.1 over plain http. */
export const LOCAL_SHEETS_ENV = { SHEET_FETCH_ALLOW_HTTP: "true", SHEET_FETCH_ALLOW_NETWORKS: "127.0.0.1/32" } as const;

/**
 * A one-artist tracker laid out as community trackers are (issue 37): a title row and an announcement row above the
 * header, era header rows (statistics in the Era cell, the era's name, story and span), songs whose Era cell is
 * blank, marks, dates with unknown parts, several links in a cell. 13 rows: 8 songs in 2 eras.
 */
export function trackerSheet(opts: { updated?: string; rows?: string[] } = {}): string {
  const songs = opts.rows ?? TRACKER_SONGS;
  return [
    "Mara Quill Unreleased Tracker,,,,,,,,",
    `"Join the Discord for leaks and news · Last updated ${opts.updated ?? "11/20/2026"}",,,,,,,,`,
    "Era,Name,Notes,Track Length,File Date,Leak Date,Available Length,Quality,Link(s)",
    ...songs,
  ].join("\n");
}

/** The rows of trackerSheet under its header: two era header rows and eight songs. */
export const TRACKER_SONGS = [
  '"1 OG File(s)\n2 Full\n1 Snippet(s)\n1 Unavailable",Harbor Lights,"The first era, recorded at the harbour studio.",,(2018 - 2019),,,,',
  ',⭐ Tidewater (feat. Orrin Vale),Played at the Harbor show.,3:41,2019-06-02,"Sep 30, 2019",OG File,Lossless,https://example.com/tidewater',
  ",🥇 Undertow,,4:05,,??/??/2019,Snippet,LQ,",
  ',Night Ferry,,2:58,,2019-11-02,Full,HQ,"https://example.com/nf-1, https://example.com/nf-2"',
  ",Lantern Song,,3:12,,Early 2019,Full,CDQ,",
  ",Glass Tide,,,,,Unavailable,Not Available,",
  '"2 Full\n1 Snippet(s)",Salt Years,"The second era, written on tour.",,(2020 - 2021),,,,',
  ",Paper Moons,,,,,Snippet,Recording,",
  ",Glass Coast,,,,,Full,HQ,",
  ",Ghost Pier,,,,Summer 2021,Full,High Quality,",
];
