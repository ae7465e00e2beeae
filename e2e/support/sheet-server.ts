import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A published sheet served by the test: its address, the CSV it serves now, and how many times it was fetched. */
export type SheetServer = {
  url: string;
  /** Serve `csv` from the next fetch on (the editors changed the sheet). */
  set: (csv: string) => void;
  fetches: () => number;
  /**
   * Hold the answers to fetches from now on until the returned release is called (a slow sheet): the sync stays
   * "Syncing…" meanwhile.
   */
  hold: () => () => void;
  close: () => Promise<void>;
};

/**
 * Serve a CSV on 127.0.0.1 (a free port) as a published Google Sheet would, at `/sheet.csv`; the e2e server may
 * fetch it (global setup allows http on 127.0.0.1). Each fetch gets the CSV as it is at that moment.
 */
export async function serveSheet(csv: string): Promise<SheetServer> {
  let body = csv;
  let fetches = 0;
  let held: Promise<void> = Promise.resolve();
  const server = createServer((req, res) => {
    if (req.url !== "/sheet.csv") {
      res.writeHead(404).end();
      return;
    }
    fetches++;
    void held.then(() =>
      res.writeHead(200, { "content-type": "text/csv; charset=utf-8", "cache-control": "no-store" }).end(body),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sheet.csv`,
    set: (next) => {
      body = next;
    },
    fetches: () => fetches,
    hold: () => {
      let release = () => {};
      held = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        release();
        held = Promise.resolve();
      };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
