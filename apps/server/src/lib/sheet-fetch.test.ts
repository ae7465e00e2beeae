import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import * as XLSX from "@e965/xlsx";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, loadConfig } from "../config.js";
import {
  addressRefusal,
  fetchSheet,
  normaliseSheetUrl,
  SheetFetchError,
  type SheetFetchPolicy,
  sheetFetchPolicy,
} from "./sheet-fetch.js";

type Seen = { url: string; headers: http.IncomingHttpHeaders };
type TestServer = {
  port: number;
  url: (path?: string) => string;
  requests: Seen[];
  /** TCP connections the server accepted. */
  connections: () => number;
  close: () => Promise<void>;
};

const servers: TestServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A real HTTP server on 127.0.0.1 that keeps what it was asked. */
async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<TestServer> {
  const requests: Seen[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? "", headers: req.headers });
    handler(req, res);
  });
  server.on("connection", () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const s: TestServer = {
    port,
    url: (path = "/") => `http://127.0.0.1:${port}${path}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(s);
  return s;
}

const policy = (over: Partial<SheetFetchPolicy> = {}): SheetFetchPolicy => ({
  allowHttp: true,
  allowNetworks: ["127.0.0.1/32"],
  timeoutMs: 5000,
  maxBytes: 1024 * 1024,
  maxRedirects: 5,
  ...over,
});

/** The SheetFetchError a fetch ends in (fails the test when it succeeds or throws something else). */
async function failure(promise: Promise<unknown>): Promise<SheetFetchError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SheetFetchError) return error;
    throw error;
  }
  throw new Error("expected the fetch to fail");
}

const CSV = "Era,Name,Quality\nNight Ferry,Undertow,CDQ\n";

// A self-signed certificate for IP 127.0.0.1 (valid 2000-2100), trusted only where a test hands it to the client.
const TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg93c9VSXqtOYx1XUe
CxL33l/HWsiZl9wsmGMLjudYSd2hRANCAAQdLXKZkbJXSE/8lY0Cocw0P82pXWq1
JvtOGdbaukVlGuQ/4suA/mHN6hp+OB4htqf5deM+WBzbByNsP/eL5zE/
-----END PRIVATE KEY-----
`;
const TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBfjCCASSgAwIBAgIBATAKBggqhkjOPQQDAjAUMRIwEAYDVQQDDAkxMjcuMC4w
LjEwIBcNMDAwMTAxMDAwMDAwWhgPMjEwMDAxMDEwMDAwMDBaMBQxEjAQBgNVBAMM
CTEyNy4wLjAuMTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABB0tcpmRsldIT/yV
jQKhzDQ/zaldarUm+04Z1tq6RWUa5D/iy4D+Yc3qGn44HiG2p/l14z5YHNsHI2w/
94vnMT+jZTBjMA8GA1UdEQQIMAaHBH8AAAEwDwYDVR0TAQH/BAUwAwEB/zALBgNV
HQ8EBAMCAoQwEwYDVR0lBAwwCgYIKwYBBQUHAwEwHQYDVR0OBBYEFFd3u4z3vLkc
rDF2npMHTMbRgh+DMAoGCCqGSM49BAMCA0gAMEUCIQDxzuH8oHm+YcvYMEFkj+TL
CcnHuy1jDWAf3CP35+LytQIgbAXHTs4/NfsW9W5hOvt6T1jtwyHv7JrsnTkCxbor
J1c=
-----END CERTIFICATE-----
`;

/** An https server on 127.0.0.1 with the test certificate. */
async function serveTls(
  handler: http.RequestListener,
): Promise<{ url: (path: string) => string; close: () => Promise<void> }> {
  const server = https.createServer({ key: TLS_KEY, cert: TLS_CERT }, handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  servers.push({ port, url: () => "", requests: [], connections: () => 0, close });
  return { url: (path) => `https://127.0.0.1:${port}${path}`, close };
}

/** Make the fetcher's https requests trust the test certificate (and nothing else changes). */
function trustTestCertificate() {
  const real = https.request;
  vi.spyOn(https, "request").mockImplementation(((options: https.RequestOptions) =>
    real({ ...options, ca: TLS_CERT })) as never);
}

describe("fetchSheet", () => {
  it("fetches a CSV with its validators, as a plain client that sends no cookies and names Unheard", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, {
        "Content-Type": "text/csv; charset=utf-8",
        ETag: '"v1"',
        "Last-Modified": "Wed, 18 Nov 2026 10:00:00 GMT",
        "Set-Cookie": "session=abc",
      });
      res.end(CSV);
    });
    const result = await fetchSheet(server.url("/sheets/tracker.csv?x=1"), policy());
    expect(result).toEqual({
      status: "fetched",
      bytes: Buffer.from(CSV),
      contentType: "text/csv",
      fileName: "tracker.csv",
      etag: '"v1"',
      lastModified: "Wed, 18 Nov 2026 10:00:00 GMT",
      finalUrl: server.url("/sheets/tracker.csv?x=1"),
    });
    const sent = server.requests[0]?.headers ?? {};
    expect(sent["user-agent"]).toMatch(/Unheard/);
    expect(sent["accept-encoding"]).toBe("identity");
    expect(sent.cookie).toBeUndefined();
    expect(sent["if-none-match"]).toBeUndefined();
  });

  it("fetches an XLSX workbook byte for byte, named by Content-Disposition", async () => {
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet([["Name"], ["Undertow"]]), "Unreleased");
    const xlsx = XLSX.write(wb, { type: "buffer", bookType: "xlsx" }) as Buffer;
    const server = await serve((_req, res) => {
      res.writeHead(200, {
        "Content-Type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "Content-Disposition": `attachment; filename="Tracker.xlsx"; filename*=UTF-8''Night%20Ferry%20Tracker.xlsx`,
        "Content-Length": String(xlsx.length),
        ETag: 'W/"abc"',
      });
      res.end(xlsx);
    });
    const result = await fetchSheet(server.url("/export"), policy());
    if (result.status !== "fetched") throw new Error("expected the sheet");
    expect(result.bytes.equals(xlsx)).toBe(true);
    expect(result.fileName).toBe("Night Ferry Tracker.xlsx");
    expect(result.contentType).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(result.etag).toBe('W/"abc"');
    expect(result.lastModified).toBeNull();
  });

  it("names a download without Content-Disposition after its path, or 'sheet' with the type's extension", async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, {
        "Content-Type":
          req.url === "/"
            ? "text/tab-separated-values"
            : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        ...(req.url === "/slashes" ? { "Content-Disposition": 'attachment; filename="../../etc/x.csv"' } : {}),
      });
      res.end("a\tb\n");
    });
    const name = async (path: string) => {
      const r = await fetchSheet(server.url(path), policy());
      return r.status === "fetched" ? r.fileName : null;
    };
    expect(await name("/spreadsheets/d/abc/export")).toBe("export.xlsx");
    expect(await name("/")).toBe("sheet.tsv");
    // A path in the header never becomes a path here.
    expect(await name("/slashes")).not.toMatch(/[/\\]/);
  });

  it("answers a 304 to If-None-Match and If-Modified-Since as unchanged, with the validators", async () => {
    const server = await serve((req, res) => {
      if (req.headers["if-none-match"] === '"v1"') {
        res.writeHead(304, { ETag: '"v1"' });
        res.end();
        return;
      }
      res.writeHead(200, { "Content-Type": "text/csv", ETag: '"v1"' });
      res.end(CSV);
    });
    const result = await fetchSheet(server.url("/s.csv"), policy(), {
      etag: '"v1"',
      lastModified: "Wed, 18 Nov 2026 10:00:00 GMT",
    });
    expect(result).toEqual({ status: "unchanged", etag: '"v1"', lastModified: "Wed, 18 Nov 2026 10:00:00 GMT" });
    expect(server.requests[0]?.headers["if-none-match"]).toBe('"v1"');
    expect(server.requests[0]?.headers["if-modified-since"]).toBe("Wed, 18 Nov 2026 10:00:00 GMT");
  });

  it("refuses loopback before any connection when no network allows it: 127.0.0.1, localhost, [::1]", async () => {
    const server = await serve((_req, res) => res.end(CSV));
    const bare = policy({ allowNetworks: [] });
    for (const url of [server.url("/s.csv"), `http://localhost:${server.port}/s.csv`]) {
      const error = await failure(fetchSheet(url, bare));
      expect(error.code, url).toBe("refused_address");
      expect(error.message).toMatch(/loopback/);
    }
    // [::1] is loopback too, and the allowed 127.0.0.1/32 does not cover it.
    const v6 = await failure(fetchSheet(`http://[::1]:${server.port}/s.csv`, policy()));
    expect(v6.code).toBe("refused_address");
    expect(server.connections()).toBe(0);
  });

  it("refuses a host name when any one of its addresses is private", async () => {
    const server = await serve((_req, res) => res.end(CSV));
    vi.spyOn(dns.promises, "lookup").mockResolvedValue([
      { address: "127.0.0.1", family: 4 },
      { address: "10.0.0.1", family: 4 },
    ] as never);
    const error = await failure(fetchSheet(`http://mixed.example:${server.port}/s.csv`, policy()));
    expect(error.code).toBe("refused_address");
    expect(error.message).toMatch(/mixed\.example, which resolves to a private network address/);
    // The private address is not told back.
    expect(error.message).not.toContain("10.0.0.1");
    expect(server.connections()).toBe(0);
  });

  it("connects to the address it checked, whatever a second DNS answer says (no rebinding)", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/csv" });
      res.end(CSV);
    });
    vi.spyOn(dns.promises, "lookup").mockResolvedValue([{ address: "127.0.0.1", family: 4 }] as never);
    // Any later lookup would answer with another address, where nothing listens.
    vi.spyOn(dns, "lookup").mockImplementation(((
      _host: string,
      options: unknown,
      callback: (e: null, a: unknown, f?: number) => void,
    ) => {
      const cb = typeof options === "function" ? (options as typeof callback) : callback;
      if (typeof options === "object" && (options as { all?: boolean }).all)
        cb(null, [{ address: "127.0.0.3", family: 4 }]);
      else cb(null, "127.0.0.3", 4);
    }) as never);
    const result = await fetchSheet(`http://sheet.example:${server.port}/s.csv`, policy());
    expect(result.status).toBe("fetched");
    expect(server.requests[0]?.headers.host).toBe(`sheet.example:${server.port}`);
  });

  it("follows a redirect to an allowed address and reports where the sheet came from", async () => {
    const server = await serve((req, res) => {
      if (req.url === "/a") {
        res.writeHead(302, { Location: "/b.csv" });
        res.end();
        return;
      }
      res.writeHead(200, { "Content-Type": "text/csv" });
      res.end(CSV);
    });
    const result = await fetchSheet(server.url("/a"), policy());
    expect(result.status === "fetched" && result.finalUrl).toBe(server.url("/b.csv"));
    expect(server.requests.map((r) => r.url)).toEqual(["/a", "/b.csv"]);
  });

  it("checks each redirect again: other loopback, cloud metadata, private, IPv4-mapped, file:, credentials", async () => {
    let target = "";
    const server = await serve((_req, res) => {
      res.writeHead(302, { Location: target });
      res.end();
    });
    const cases: [string, string][] = [
      [`http://127.0.0.2:${server.port}/`, "refused_address"],
      ["http://169.254.169.254/latest/meta-data/", "refused_address"],
      ["http://10.0.0.1/sheet.csv", "refused_address"],
      [`http://[::ffff:127.0.0.1]:${server.port}/`, "refused_address"],
      ["file:///etc/passwd", "bad_url"],
      [`http://user:secret@127.0.0.1:${server.port}/`, "bad_url"],
    ];
    for (const [location, code] of cases) {
      target = location;
      const before = server.requests.length;
      const error = await failure(fetchSheet(server.url("/start"), policy({ timeoutMs: 2000 })));
      expect(error.code, location).toBe(code);
      expect(error.message, location).toMatch(/redirected/);
      // Only the first request reached anything.
      expect(server.requests.length - before, location).toBe(1);
    }
  });

  it("follows up to maxRedirects redirects and refuses the next", async () => {
    const server = await serve((req, res) => {
      const n = Number(req.url?.slice(1));
      if (n > 0) {
        res.writeHead(301, { Location: `/${n - 1}` });
        res.end();
        return;
      }
      res.writeHead(200, { "Content-Type": "text/csv" });
      res.end(CSV);
    });
    expect((await fetchSheet(server.url("/5"), policy())).status).toBe("fetched");
    const before = server.requests.length;
    const error = await failure(fetchSheet(server.url("/6"), policy()));
    expect(error.code).toBe("too_many_redirects");
    expect(error.message).toMatch(/more than 5 times/);
    expect(server.requests.length - before).toBe(6);
  });

  it("fetches over https only unless http is allowed, refusing before any connection", async () => {
    const server = await serve((_req, res) => res.end(CSV));
    const error = await failure(fetchSheet(server.url("/s.csv"), policy({ allowHttp: false })));
    expect(error.code).toBe("bad_url");
    expect(error.message).toMatch(/https only/);
    expect(server.connections()).toBe(0);
  });

  it("fetches over https, and refuses a redirect from https to http unless http is allowed", async () => {
    const plain = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/csv" });
      res.end(CSV);
    });
    const secure = await serveTls((req, res) => {
      if (req.url === "/down") {
        res.writeHead(302, { Location: plain.url("/s.csv") });
        res.end();
        return;
      }
      res.writeHead(200, { "Content-Type": "text/csv" });
      res.end(CSV);
    });
    trustTestCertificate();
    const httpsOnly = policy({ allowHttp: false });
    const ok = await fetchSheet(secure.url("/s.csv"), httpsOnly);
    expect(ok.status === "fetched" && ok.bytes.toString()).toBe(CSV);

    const error = await failure(fetchSheet(secure.url("/down"), httpsOnly));
    expect(error.code).toBe("bad_url");
    expect(error.message).toMatch(/redirected to an http:\/\/ address.*https only/);
    expect(plain.connections()).toBe(0);
    // Allowed, the same redirect is followed.
    const followed = await fetchSheet(secure.url("/down"), policy());
    expect(followed.status === "fetched" && followed.finalUrl).toBe(plain.url("/s.csv"));
  });

  it("refuses a server whose certificate it cannot trust, in words", async () => {
    const secure = await serveTls((_req, res) => res.end(CSV));
    const error = await failure(fetchSheet(secure.url("/s.csv"), policy({ allowHttp: false })));
    expect(error.code).toBe("network");
    expect(error.message).toMatch(/no valid https certificate/);
  });

  it("refuses credentials and non-web schemes before any connection", async () => {
    const server = await serve((_req, res) => res.end(CSV));
    for (const url of [`http://user:pass@127.0.0.1:${server.port}/s.csv`, "file:///etc/passwd", "ftp://x.test/a"]) {
      const error = await failure(fetchSheet(url, policy()));
      expect(error.code, url).toBe("bad_url");
    }
    expect(server.connections()).toBe(0);
  });

  it("cuts a server that never answers, and one that trickles, at the time bound", async () => {
    const hanging = await serve(() => {});
    let t = Date.now();
    let error = await failure(fetchSheet(hanging.url("/s.csv"), policy({ timeoutMs: 300 })));
    expect(error.code).toBe("timeout");
    expect(error.message).toMatch(/0\.3 seconds/);
    expect(Date.now() - t).toBeLessThan(1000);

    // A byte every 50 ms never idles long enough for a per-read timeout; the whole fetch's bound still cuts it.
    const trickling = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/csv" });
      const timer = setInterval(() => res.write("a"), 50);
      res.on("close", () => clearInterval(timer));
    });
    t = Date.now();
    error = await failure(fetchSheet(trickling.url("/s.csv"), policy({ timeoutMs: 300 })));
    expect(error.code).toBe("timeout");
    expect(Date.now() - t).toBeLessThan(1000);
  });

  it("bounds the DNS lookup by the same clock", async () => {
    vi.spyOn(dns.promises, "lookup").mockReturnValue(new Promise(() => {}) as never);
    const t = Date.now();
    const error = await failure(fetchSheet("http://slow-dns.example/s.csv", policy({ timeoutMs: 300 })));
    expect(error.code).toBe("timeout");
    expect(Date.now() - t).toBeLessThan(1000);
  });

  it("cuts a body that grows past maxBytes at once, closing the connection", async () => {
    let written = 0;
    let closedEarly: Promise<boolean> = Promise.resolve(false);
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/csv" });
      closedEarly = new Promise((resolve) => res.on("close", () => resolve(!res.writableFinished)));
      const chunk = Buffer.alloc(16 * 1024, "a");
      const pump = () => {
        while (!res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) break;
        }
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    });
    const t = Date.now();
    const error = await failure(fetchSheet(server.url("/endless.csv"), policy({ maxBytes: 256 * 1024 })));
    expect(error.code).toBe("too_large");
    expect(error.message).toMatch(/larger than 256 KB/);
    expect(Date.now() - t).toBeLessThan(2000);
    expect(await closedEarly).toBe(true);
    // What the server got out before the cut is socket buffers' worth, not the stream.
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it("refuses a Content-Length over maxBytes before reading the body", async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/csv", "Content-Length": String(10 * 1024 * 1024) });
      res.write("a,b\n"); // …and then waits: reading on would run into the time bound.
    });
    const t = Date.now();
    const error = await failure(fetchSheet(server.url("/big.csv"), policy()));
    expect(error.code).toBe("too_large");
    expect(error.message).toMatch(/larger than 1 MB/);
    expect(Date.now() - t).toBeLessThan(1000);
  });

  it("decodes a server's gzip anyway, within the same bound (a gzip bomb is cut)", async () => {
    const small = gzipSync(Buffer.from(CSV));
    const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024));
    const server = await serve((req, res) => {
      res.writeHead(200, { "Content-Type": "text/csv", "Content-Encoding": "gzip" });
      res.end(req.url === "/bomb.csv" ? bomb : small);
    });
    const ok = await fetchSheet(server.url("/s.csv"), policy());
    expect(ok.status === "fetched" && ok.bytes.toString()).toBe(CSV);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const error = await failure(fetchSheet(server.url("/bomb.csv"), policy()));
    expect(error.code).toBe("too_large");
  });

  it("reads deflate and br too, and refuses an encoding it cannot read or a broken one, in words", async () => {
    const bodies: Record<string, [string, Buffer]> = {
      "/deflate": ["deflate", deflateSync(Buffer.from(CSV))],
      "/br": ["br", brotliCompressSync(Buffer.from(CSV))],
      "/compress": ["compress", Buffer.from("xx")],
      "/broken": ["gzip", Buffer.from("not gzip at all")],
    };
    const server = await serve((req, res) => {
      const [encoding, body] = bodies[req.url ?? ""] ?? ["identity", Buffer.alloc(0)];
      res.writeHead(200, { "Content-Type": "text/csv", "Content-Encoding": encoding });
      res.end(body);
    });
    for (const path of ["/deflate", "/br"]) {
      const r = await fetchSheet(server.url(path), policy());
      expect(r.status === "fetched" && r.bytes.toString(), path).toBe(CSV);
    }
    const unknown = await failure(fetchSheet(server.url("/compress"), policy()));
    expect(unknown.code).toBe("content_type");
    expect(unknown.message).toMatch(/encoded as compress/);
    const broken = await failure(fetchSheet(server.url("/broken"), policy()));
    expect(broken.code).toBe("content_type");
    expect(broken.message).toMatch(/compressed data that could not be read/);
  });

  it("refuses a web page with advice, and other types by name", async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, { "Content-Type": req.url === "/page" ? "text/html; charset=utf-8" : "application/json" });
      res.end(req.url === "/page" ? "<!doctype html><title>Sign in</title>" : "{}");
    });
    const page = await failure(fetchSheet(server.url("/page"), policy()));
    expect(page.code).toBe("content_type");
    expect(page.message).toBe(
      "The link returned a web page, not a sheet. In Google Sheets use File → Share → Publish to the web and pick CSV or XLSX.",
    );
    const json = await failure(fetchSheet(server.url("/json"), policy()));
    expect(json.code).toBe("content_type");
    expect(json.message).toMatch(/application\/json, not a sheet/);
  });

  it("words error statuses for the admin", async () => {
    const server = await serve((req, res) => {
      res.writeHead(Number(req.url?.slice(1)), { "Content-Type": "text/html" });
      res.end("<h1>no</h1>");
    });
    const answer = async (status: number) => failure(fetchSheet(server.url(`/${status}`), policy()));
    const notFound = await answer(404);
    expect(notFound).toMatchObject({ code: "http_status", status: 404 });
    expect(notFound.message).toMatch(/^The sheet link answered 404 \(not found\)\. Check the link/);
    const broken = await answer(500);
    expect(broken).toMatchObject({ code: "http_status", status: 500 });
    expect(broken.message).toMatch(/^The sheet link answered 500 \(internal server error\)\. .*try again later/);
    expect((await answer(403)).message).toMatch(/403 \(forbidden\)\. The sheet is not public.*Publish to the web/);
    expect((await answer(410)).status).toBe(410);
  });

  it("words network failures: a refused connection, a connection cut mid-body", async () => {
    const gone = await serve(() => {});
    const port = gone.port;
    await gone.close();
    servers.splice(servers.indexOf(gone), 1);
    const refused = await failure(fetchSheet(`http://127.0.0.1:${port}/s.csv`, policy()));
    expect(refused.code).toBe("network");
    expect(refused.message).toMatch(/refused the connection/);

    const cut = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/csv", "Content-Length": "1000" });
      res.write("a,b\n");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const error = await failure(fetchSheet(cut.url("/s.csv"), policy()));
    expect(error.code).toBe("network");
    expect(error.message).toMatch(/cut before the sheet arrived/);
  });
});

describe("addressRefusal", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.8.9.10", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.5.4", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "carrierGradeNat"],
    ["169.254.169.254", "linkLocal"],
    ["0.0.0.0", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["::1", "loopback"],
    ["::", "unspecified"],
    ["fc00::1", "uniqueLocal"],
    ["fd12:3456::1", "uniqueLocal"],
    ["fe80::1", "linkLocal"],
    ["ff02::1", "multicast"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:127.0.0.1", "loopback"],
    ["64:ff9b::10.0.0.1", "private"],
    ["64:ff9b:1::1", "rfc6052"],
    ["2002:0a00:0001::", "private"],
    ["2002:7f00:0001::1", "loopback"],
    // Teredo: server 65.54.227.120, client 10.0.0.1 (inverted: f5ff:fffe).
    ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "private"],
    ["::a00:1", "ipv4Compatible"],
    ["2001:db8::1", "reserved"],
    ["not an address", "invalid"],
  ])("refuses %s as %s", (address, kind) => {
    expect(addressRefusal(address)).toBe(kind);
  });

  it.each([
    "8.8.8.8",
    "142.250.74.46",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::8.8.8.8",
    "2002:0808:0808::1",
  ])("allows %s", (address) => {
    expect(addressRefusal(address)).toBeNull();
  });

  it("allows what an allowed network holds, read as written", () => {
    const allow = ["10.0.0.0/8", "fd00::/8", "192.168.1.5"];
    expect(addressRefusal("10.200.0.1", allow)).toBeNull();
    expect(addressRefusal("fd00::5", allow)).toBeNull();
    expect(addressRefusal("192.168.1.5", allow)).toBeNull();
    expect(addressRefusal("192.168.1.6", allow)).toBe("private");
    expect(addressRefusal("172.16.0.1", allow)).toBe("private");
    expect(addressRefusal("127.0.0.1", allow)).toBe("loopback");
    // An IPv4 network does not let in the IPv4-mapped form of its addresses.
    expect(addressRefusal("::ffff:10.0.0.1", allow)).toBe("private");
  });
});

describe("normaliseSheetUrl", () => {
  const id = "1AbC-d_Ef23";
  it.each([
    [
      `https://docs.google.com/spreadsheets/d/${id}/edit#gid=123`,
      `https://docs.google.com/spreadsheets/d/${id}/export?format=xlsx`,
    ],
    [
      `https://docs.google.com/spreadsheets/d/${id}/edit?usp=sharing`,
      `https://docs.google.com/spreadsheets/d/${id}/export?format=xlsx`,
    ],
    [
      `  https://docs.google.com/spreadsheets/d/${id}/view  `,
      `https://docs.google.com/spreadsheets/d/${id}/export?format=xlsx`,
    ],
    [
      `https://docs.google.com/spreadsheets/d/${id}/htmlview`,
      `https://docs.google.com/spreadsheets/d/${id}/export?format=xlsx`,
    ],
    [`https://docs.google.com/spreadsheets/d/${id}`, `https://docs.google.com/spreadsheets/d/${id}/export?format=xlsx`],
    [
      `https://docs.google.com/spreadsheets/d/${id}/`,
      `https://docs.google.com/spreadsheets/d/${id}/export?format=xlsx`,
    ],
    [
      `https://docs.google.com/spreadsheets/u/1/d/${id}/edit`,
      `https://docs.google.com/spreadsheets/d/${id}/export?format=xlsx`,
    ],
    [
      `https://docs.google.com/spreadsheets/d/${id}/export?format=pdf`,
      `https://docs.google.com/spreadsheets/d/${id}/export?format=xlsx`,
    ],
    [
      `https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pubhtml`,
      "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?output=xlsx",
    ],
    [
      `https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pubhtml?gid=0&single=true`,
      "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?output=xlsx",
    ],
    [
      "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pubhtml/sheet?headers=false&gid=0",
      "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?output=xlsx",
    ],
    [
      "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub",
      "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?output=xlsx",
    ],
    [
      `https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?output=html`,
      "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?output=xlsx",
    ],
    // Already a sheet format: kept as asked (one tab as CSV stays one tab).
    [
      `https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?gid=0&single=true&output=csv`,
      "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?gid=0&single=true&output=csv",
    ],
    [
      `https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?output=xlsx`,
      "https://docs.google.com/spreadsheets/d/e/2PACX-1vQ/pub?output=xlsx",
    ],
    [
      `https://docs.google.com/spreadsheets/d/${id}/export?format=csv&gid=7`,
      `https://docs.google.com/spreadsheets/d/${id}/export?format=csv&gid=7`,
    ],
    [
      `https://docs.google.com/spreadsheets/d/${id}/export?format=tsv`,
      `https://docs.google.com/spreadsheets/d/${id}/export?format=tsv`,
    ],
    [
      `https://docs.google.com/spreadsheets/d/${id}/export?format=ods`,
      `https://docs.google.com/spreadsheets/d/${id}/export?format=ods`,
    ],
    [
      `https://docs.google.com/spreadsheets/d/${id}/gviz/tq?tqx=out:csv&sheet=Unreleased`,
      `https://docs.google.com/spreadsheets/d/${id}/gviz/tq?tqx=out:csv&sheet=Unreleased`,
    ],
    // Other hosts pass through.
    ["https://trackers.example/night-ferry.xlsx?v=2", "https://trackers.example/night-ferry.xlsx?v=2"],
    ["http://sheets.internal/a.csv", "http://sheets.internal/a.csv"],
    ["https://docs.google.com/document/d/abc/edit", "https://docs.google.com/document/d/abc/edit"],
  ])("%s → %s", (raw, expected) => {
    expect(normaliseSheetUrl(raw)).toBe(expected);
  });

  it.each([
    ["", /Paste the link/],
    ["   ", /Paste the link/],
    ["not a link", /not a web address/],
    ["docs.google.com/spreadsheets/d/abc", /not a web address/],
    ["https://user:pass@docs.google.com/spreadsheets/d/abc/edit", /user name or password/],
    ["https://user@trackers.example/a.csv", /user name or password/],
    ["file:///etc/passwd", /starts with file:/],
    ["ftp://trackers.example/a.csv", /starts with ftp:/],
    ["data:text/csv,a,b", /starts with data:/],
    ["javascript:alert(1)", /starts with javascript:/],
    [`https://trackers.example/${"a".repeat(2000)}.csv`, /longer than 2,000 characters/],
  ])("refuses %j", (raw, message) => {
    let caught: unknown;
    try {
      normaliseSheetUrl(raw);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SheetFetchError);
    expect((caught as SheetFetchError).code).toBe("bad_url");
    expect((caught as SheetFetchError).message).toMatch(message);
  });
});

describe("sheetFetchPolicy", () => {
  const env = { DATA_DIR: "/tmp/unheard-sheet-fetch-unused", AUTH_SECRET: "s".repeat(40) };
  it("is https only, public addresses only, 15 s, 20 MB and 5 redirects by default", () => {
    expect(sheetFetchPolicy(loadConfig(env))).toEqual({
      allowHttp: false,
      allowNetworks: [],
      timeoutMs: 15_000,
      maxBytes: 20 * 1024 * 1024,
      maxRedirects: 5,
    });
  });

  it("reads the settings, and names a bad network list", () => {
    const config = loadConfig({
      ...env,
      SHEET_FETCH_ALLOW_HTTP: "true",
      SHEET_FETCH_ALLOW_NETWORKS: " 10.0.0.0/8, fd00::/8 ,192.168.1.5",
      SHEET_FETCH_TIMEOUT_MS: "2500",
      SHEET_FETCH_MAX_MB: "2",
    });
    expect(sheetFetchPolicy(config)).toEqual({
      allowHttp: true,
      allowNetworks: ["10.0.0.0/8", "fd00::/8", "192.168.1.5"],
      timeoutMs: 2500,
      maxBytes: 2 * 1024 * 1024,
      maxRedirects: 5,
    });
    for (const bad of ["10.0.0.0/33", "intranet", "10/8"])
      expect(() => loadConfig({ ...env, SHEET_FETCH_ALLOW_NETWORKS: bad }), bad).toThrow(
        /^Invalid SHEET_FETCH_ALLOW_NETWORKS: must be comma-separated networks/,
      );
    expect(() => loadConfig({ ...env, SHEET_FETCH_ALLOW_NETWORKS: "10/8" })).toThrow(ConfigError);
  });
});
