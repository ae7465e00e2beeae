import dns, { type LookupAddress } from "node:dns";
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import net from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import ipaddr from "ipaddr.js";
import type { Config } from "../config.js";

/** Issue 37: how far a sheet fetch may go. */
export type SheetFetchPolicy = {
  allowHttp: boolean;
  allowNetworks: string[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
};
/** Validators of the last good fetch, sent back so an unchanged sheet costs one small answer. */
export type SheetFetchConditional = { etag?: string | null; lastModified?: string | null };
/** What a fetch brought: nothing new (304), or the sheet's bytes. */
export type SheetFetchResult =
  | { status: "unchanged"; etag: string | null; lastModified: string | null }
  | {
      status: "fetched";
      bytes: Buffer;
      contentType: string;
      fileName: string;
      etag: string | null;
      lastModified: string | null;
      finalUrl: string;
    };
/** Why a fetch failed. */
export type SheetFetchErrorCode =
  | "bad_url"
  | "refused_address"
  | "http_status"
  | "too_large"
  | "timeout"
  | "content_type"
  | "network"
  | "too_many_redirects";

/** A fetch that failed; `message` is in words for the admin (shown as the link's last error). */
export class SheetFetchError extends Error {
  readonly code: SheetFetchErrorCode;
  readonly status?: number;
  constructor(code: SheetFetchErrorCode, message: string, status?: number) {
    super(message);
    this.name = "SheetFetchError";
    this.code = code;
    if (status !== undefined) this.status = status;
  }
}

const MAX_URL_CHARS = 2000;
const USER_AGENT = "Unheard-tracker-sync/1.0 (fetches published tracker sheets)";
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const HTML_MESSAGE =
  "The link returned a web page, not a sheet. In Google Sheets use File → Share → Publish to the web and pick CSV or XLSX.";

/** Media types a sheet may come as, with the extension a nameless download gets. */
const SHEET_TYPES: Record<string, string> = {
  "text/csv": "csv",
  "application/csv": "csv",
  "text/x-csv": "csv",
  "application/x-csv": "csv",
  "text/comma-separated-values": "csv",
  "text/tab-separated-values": "tsv",
  "text/plain": "txt",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
  "application/vnd.oasis.opendocument.spreadsheet": "ods",
  "application/vnd.ms-excel": "xls",
  "application/zip": "zip",
  "application/octet-stream": "",
};
const WEB_PAGE_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const SHEET_OUTPUTS = new Set(["csv", "tsv", "xlsx", "ods"]);

/** The URL to fetch for what an admin pasted: Google Sheets edit/share links become their .xlsx export. */
export function normaliseSheetUrl(raw: string): string {
  const url = parseSheetUrl(raw.trim());
  return googleSheetsExport(url) ?? url.href;
}

/** Fetch a sheet within the policy; a 304 to the conditional headers is "unchanged". */
export async function fetchSheet(
  url: string,
  policy: SheetFetchPolicy,
  conditional: SheetFetchConditional = {},
): Promise<SheetFetchResult> {
  // One clock for the whole fetch (every hop's lookup, connection, headers and body): a server that trickles
  // bytes or hangs is cut when it runs out, whatever it does per packet.
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), policy.timeoutMs);
  try {
    return await fetchWithin(url, policy, conditional, controller.signal);
  } catch (error) {
    if (controller.signal.aborted && !(error instanceof SheetFetchError))
      throw new SheetFetchError(
        "timeout",
        `The sheet took longer than ${seconds(policy.timeoutMs)} to arrive, so Unheard stopped waiting. Try again later.`,
      );
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The policy from config.sheetFetch (maxRedirects 5). */
export function sheetFetchPolicy(config: Config): SheetFetchPolicy {
  const s = config.sheetFetch;
  return {
    allowHttp: s.allowHttp,
    allowNetworks: [...s.allowNetworks],
    timeoutMs: s.timeoutMs,
    maxBytes: Math.floor(s.maxMb * 1024 * 1024),
    maxRedirects: 5,
  };
}

/** Whether `text` names a network for SHEET_FETCH_ALLOW_NETWORKS: a CIDR, or one address. */
export function isNetwork(text: string): boolean {
  return parseNetwork(text) !== null;
}

/**
 * Why Unheard may not fetch from `address`: its kind ("loopback", "private", "linkLocal", …), or null when it
 * may (public unicast, or inside one of `allowNetworks`). Addresses that carry an IPv4 address (IPv4-mapped,
 * NAT64, 6to4, Teredo) are judged by it.
 */
export function addressRefusal(address: string, allowNetworks: readonly string[] = []): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[(.*)\]$/, "$1"));
  } catch {
    return "invalid";
  }
  // The exception is read as written: "127.0.0.1/32" does not also let in ::ffff:127.0.0.1.
  for (const text of allowNetworks) {
    const network = parseNetwork(text);
    if (network && network[0].kind() === ip.kind() && ip.match(network)) return null;
  }
  const kind = addressKind(ip);
  return kind === "unicast" ? null : kind;
}

function addressKind(ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (ip.kind() === "ipv4") return ip.range();
  const v6 = ip as ipaddr.IPv6;
  const p = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
  const range = v6.range();
  switch (range) {
    case "ipv4Mapped":
      return addressKind(v6.toIPv4Address());
    case "rfc6052":
      // The well-known NAT64 prefix 64:ff9b::/96 ends in the IPv4 address; the local-use 64:ff9b:1::/48 is private.
      return p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0 ? addressKind(v4(p[6] ?? 0, p[7] ?? 0)) : "rfc6052";
    case "6to4":
      return addressKind(v4(p[1] ?? 0, p[2] ?? 0));
    case "teredo": {
      // 2001:0:<server v4>:<flags>:<port>:<client v4, inverted>: both ends must be public.
      const server = addressKind(v4(p[2] ?? 0, p[3] ?? 0));
      return server === "unicast" ? addressKind(v4(~(p[6] ?? 0) & 0xffff, ~(p[7] ?? 0) & 0xffff)) : server;
    }
    case "unicast":
      // ::a.b.c.d (IPv4-compatible, deprecated) is not routed as the IPv4 address it names; refuse it.
      return p.slice(0, 6).every((x) => x === 0) ? "ipv4Compatible" : "unicast";
    default:
      return range;
  }
}

function parseNetwork(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  const t = text.trim();
  try {
    if (t.includes("/")) {
      // Four-part decimal only: ipaddr.js would also read "10/8" or "0x7f.1/32", which nobody means.
      if (!t.includes(":") && !ipaddr.IPv4.isValidCIDRFourPartDecimal(t)) return null;
      return ipaddr.parseCIDR(t);
    }
    if (!t.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(t)) return null;
    const ip = ipaddr.parse(t);
    return [ip, ip.kind() === "ipv4" ? 32 : 128];
  } catch {
    return null;
  }
}

function parseSheetUrl(text: string, redirected = false): URL {
  const what = redirected ? "The sheet link redirected to an address that" : "The link";
  if (!text) throw new SheetFetchError("bad_url", "Paste the link of the published sheet.");
  if (text.length > MAX_URL_CHARS)
    throw new SheetFetchError("bad_url", `${what} is longer than ${MAX_URL_CHARS.toLocaleString("en-US")} characters.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SheetFetchError(
      "bad_url",
      redirected
        ? "The sheet link redirected to something that is not a web address."
        : "This is not a web address. Paste the sheet's link, starting with https://.",
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new SheetFetchError(
      "bad_url",
      `${what} starts with ${url.protocol.replace(/:$/, "")}:, not https:. Only web links to a sheet can be fetched.`,
    );
  if (url.username || url.password)
    throw new SheetFetchError(
      "bad_url",
      `${what} contains a user name or password. Publish the sheet instead, and use its public link.`,
    );
  if (!url.hostname) throw new SheetFetchError("bad_url", `${what} has no host name.`);
  url.hash = "";
  return url;
}

/** A Google Sheets link as the export of the whole workbook, unless it already asks for a sheet format. */
function googleSheetsExport(url: URL): string | null {
  if (url.hostname !== "docs.google.com") return null;
  const path = url.pathname.replace(/^\/spreadsheets\/u\/\d+\//, "/spreadsheets/");
  const published = /^\/spreadsheets\/d\/e\/([A-Za-z0-9_-]+)(?:\/(.*))?$/.exec(path);
  if (published) {
    const [, id, rest = ""] = published;
    if (rest === "pub" && SHEET_OUTPUTS.has(url.searchParams.get("output") ?? "")) return url.href;
    return `https://docs.google.com/spreadsheets/d/e/${id}/pub?output=xlsx`;
  }
  const doc = /^\/spreadsheets\/d\/([A-Za-z0-9_-]+)(?:\/(.*))?$/.exec(path);
  if (!doc) return null;
  const [, id, rest = ""] = doc;
  const asksForSheet =
    (rest === "export" && SHEET_OUTPUTS.has(url.searchParams.get("format") ?? "")) ||
    (rest.startsWith("gviz/tq") && /out:(csv|tsv)/.test(url.searchParams.get("tqx") ?? ""));
  if (asksForSheet) return url.href;
  // Edit, view, htmlview, a bare /d/<id>, or an export to another format: the whole workbook, so every tab and
  // the hyperlinks behind cell text come along.
  return `https://docs.google.com/spreadsheets/d/${id}/export?format=xlsx`;
}

async function fetchWithin(
  start: string,
  policy: SheetFetchPolicy,
  conditional: SheetFetchConditional,
  signal: AbortSignal,
): Promise<SheetFetchResult> {
  let url = parseSheetUrl(start.trim());
  let redirected = false;
  for (let hop = 0; ; hop++) {
    if (url.protocol === "http:" && !policy.allowHttp)
      throw new SheetFetchError(
        "bad_url",
        redirected
          ? "The sheet link redirected to an http:// address. Unheard fetches sheets over https only."
          : "The link starts with http://. Unheard fetches sheets over https only: use the https:// link.",
      );
    const addresses = await checkedAddresses(url, policy, redirected, signal);
    const { req, res } = await send(url, addresses, conditional, signal);
    const status = res.statusCode ?? 0;

    if (REDIRECTS.has(status)) {
      const location = res.headers.location;
      req.destroy();
      if (!location) throw statusError(status, "it redirected nowhere (no Location)");
      if (hop >= policy.maxRedirects)
        throw new SheetFetchError(
          "too_many_redirects",
          `The sheet link redirected more than ${policy.maxRedirects} times, so Unheard stopped following it.`,
        );
      let next: string;
      try {
        next = new URL(location, url).href;
      } catch {
        throw new SheetFetchError("bad_url", "The sheet link redirected to something that is not a web address.");
      }
      url = parseSheetUrl(next, true);
      redirected = true;
      continue;
    }

    const etag = header(res, "etag");
    const lastModified = header(res, "last-modified");
    if (status === 304) {
      req.destroy();
      return {
        status: "unchanged",
        etag: etag ?? conditional.etag ?? null,
        lastModified: lastModified ?? conditional.lastModified ?? null,
      };
    }
    if (status < 200 || status > 299) {
      req.destroy();
      throw statusError(status);
    }

    const contentType = (header(res, "content-type") ?? "application/octet-stream").split(";")[0]?.trim().toLowerCase();
    const mediaType = contentType || "application/octet-stream";
    if (WEB_PAGE_TYPES.has(mediaType)) {
      req.destroy();
      throw new SheetFetchError("content_type", HTML_MESSAGE);
    }
    if (!(mediaType in SHEET_TYPES)) {
      req.destroy();
      throw new SheetFetchError(
        "content_type",
        `The link returned ${mediaType}, not a sheet. Link to the sheet's CSV, TSV, XLSX or ODS download.`,
      );
    }
    const length = Number(header(res, "content-length"));
    if (Number.isFinite(length) && length > policy.maxBytes) {
      req.destroy();
      throw tooLarge(policy.maxBytes);
    }
    const bytes = await readBounded(req, res, policy.maxBytes, url.hostname, signal);
    return {
      status: "fetched",
      bytes,
      contentType: mediaType,
      fileName: fileNameOf(header(res, "content-disposition"), url, mediaType),
      etag,
      lastModified,
      finalUrl: url.href,
    };
  }
}

/** The host's addresses, every one of them allowed; the connection is then made to these and no others. */
async function checkedAddresses(
  url: URL,
  policy: SheetFetchPolicy,
  redirected: boolean,
  signal: AbortSignal,
): Promise<LookupAddress[]> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const literal = net.isIP(host);
  let addresses: LookupAddress[];
  if (literal) addresses = [{ address: host, family: literal }];
  else {
    try {
      addresses = await untilAborted(dns.promises.lookup(host, { all: true, verbatim: true }), signal);
    } catch (error) {
      throw networkError(error, host, signal);
    }
  }
  if (addresses.length === 0)
    throw new SheetFetchError("network", `The sheet's host name (${host}) could not be found. Check the link.`);
  for (const { address } of addresses) {
    const kind = addressRefusal(address, policy.allowNetworks);
    if (kind === null) continue;
    // A host name's private addresses are not told back: the admin needs the reason, not the network's layout.
    const words = KIND_WORDS[kind] ?? "an address that is not public";
    const target = literal ? `${words} (${host})` : `${host}, which resolves to ${words}`;
    throw new SheetFetchError(
      "refused_address",
      `${redirected ? "The sheet link redirected to" : "The sheet link points to"} ${target}. Unheard fetches sheets from public internet addresses only.`,
    );
  }
  return addresses;
}

const KIND_WORDS: Record<string, string> = {
  loopback: "this server's own address (loopback)",
  private: "a private network address",
  uniqueLocal: "a private network address",
  linkLocal: "a link-local address (such as a cloud metadata service)",
  carrierGradeNat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  broadcast: "the broadcast address",
  reserved: "a reserved address",
};

/** One GET to `url`, connected to the checked addresses only (a custom lookup: no second DNS answer to trust). */
function send(
  url: URL,
  addresses: LookupAddress[],
  conditional: SheetFetchConditional,
  signal: AbortSignal,
): Promise<{ req: http.ClientRequest; res: IncomingMessage }> {
  const lookup: NonNullable<http.RequestOptions["lookup"]> = (_host, options, callback) => {
    const family = options.family === 4 || options.family === 6 ? options.family : 0;
    const list = addresses.filter((a) => !family || a.family === family);
    const first = list[0];
    if (!first) {
      callback(Object.assign(new Error(`no IPv${family} address`), { code: "ENOTFOUND" }), "", 0);
      return;
    }
    if (options.all) (callback as (e: null, a: LookupAddress[]) => void)(null, list);
    else callback(null, first.address, first.family);
  };
  const headers: Record<string, string> = {
    "User-Agent": USER_AGENT,
    Accept:
      "text/csv, text/tab-separated-values, application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/vnd.oasis.opendocument.spreadsheet, */*;q=0.1",
    // Plain bytes, so the size bound is the size read; a server that compresses anyway is decoded within it.
    "Accept-Encoding": "identity",
  };
  if (conditional.etag) headers["If-None-Match"] = conditional.etag;
  if (conditional.lastModified) headers["If-Modified-Since"] = conditional.lastModified;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return new Promise((resolve, reject) => {
    const req = (url.protocol === "https:" ? https : http).request({
      protocol: url.protocol,
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: "GET",
      headers,
      lookup,
      // A fresh connection each time: no pooled socket opened for another host's addresses, no cookies kept.
      agent: false,
      signal,
    });
    req.once("response", (res) => resolve({ req, res }));
    // `on`, not `once`: a second error after the answer must find a listener (rejecting again is a no-op).
    req.on("error", (error) => reject(networkError(error, host, signal)));
    req.end();
  });
}

/** The body, stopped as soon as it passes `maxBytes` (decoded, when the server compressed it anyway). */
async function readBounded(
  req: http.ClientRequest,
  res: IncomingMessage,
  maxBytes: number,
  host: string,
  signal: AbortSignal,
): Promise<Buffer> {
  const encoding = (header(res, "content-encoding") ?? "identity").trim().toLowerCase();
  let source: Readable = res;
  if (encoding === "gzip" || encoding === "x-gzip") source = res.pipe(zlib.createGunzip());
  else if (encoding === "deflate") source = res.pipe(zlib.createInflate());
  else if (encoding === "br") source = res.pipe(zlib.createBrotliDecompress());
  else if (encoding !== "identity") {
    req.destroy();
    throw new SheetFetchError(
      "content_type",
      `The sheet's server sent it encoded as ${encoding}, which Unheard cannot read.`,
    );
  }
  if (source !== res) res.once("error", (error) => source.destroy(error));
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of source) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof SheetFetchError || signal.aborted) throw error;
    if ((error as { code?: string }).code?.startsWith("Z_"))
      throw new SheetFetchError("content_type", "The sheet's server sent compressed data that could not be read.");
    throw networkError(error, host, signal);
  } finally {
    // Cut the connection at once: a body past the bound is not read to its end.
    if (source !== res) source.destroy();
    req.destroy();
  }
  return Buffer.concat(chunks, total);
}

function header(res: IncomingMessage, name: string): string | null {
  const value = res.headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** Content-Disposition's file name, else the URL's last part, else "sheet" with the type's extension. */
function fileNameOf(disposition: string | null, url: URL, mediaType: string): string {
  const ext = SHEET_TYPES[mediaType] ?? "";
  const clean = (name: string) =>
    name
      .replace(/[\p{Cc}\\/]+/gu, " ")
      .trim()
      .slice(0, 200);
  if (disposition) {
    const star = /filename\*\s*=\s*(?:[\w-]+)?'[^']*'([^;]+)/i.exec(disposition)?.[1];
    const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(disposition);
    let name = "";
    if (star)
      try {
        name = decodeURIComponent(star.trim());
      } catch {
        name = "";
      }
    if (!name && plain) name = (plain[1]?.replace(/\\(.)/g, "$1") ?? plain[2] ?? "").trim();
    const cleaned = clean(name);
    if (cleaned) return cleaned;
  }
  let last = url.pathname.split("/").pop() ?? "";
  try {
    last = decodeURIComponent(last);
  } catch {
    // Keep it as written.
  }
  const fromPath = clean(last);
  if (fromPath) return fromPath.includes(".") || !ext ? fromPath : `${fromPath}.${ext}`;
  return ext ? `sheet.${ext}` : "sheet";
}

function statusError(status: number, detail?: string): SheetFetchError {
  const name = http.STATUS_CODES[status]?.toLowerCase() ?? "unknown";
  const head = `The sheet link answered ${status} (${name})`;
  let advice = "";
  if (detail) advice = `: ${detail}.`;
  else if (status === 404 || status === 410)
    advice =
      ". Check the link, and that the sheet is still published (in Google Sheets: File → Share → Publish to the web).";
  else if (status === 401 || status === 403)
    advice =
      ". The sheet is not public: in Google Sheets use File → Share → Publish to the web, and link to the published CSV or XLSX.";
  else if (status === 429) advice = ". Its server is limiting requests; Unheard will try again later.";
  else if (status >= 500)
    advice = ". The problem is on the sheet's server and is often brief; Unheard will try again later.";
  else advice = ", not the sheet.";
  return new SheetFetchError("http_status", `${head}${advice}`, status);
}

/** A socket or DNS failure in words; the deadline's abort is passed on as it is, for fetchSheet to word. */
function networkError(error: unknown, host: string, signal: AbortSignal): unknown {
  if (error instanceof SheetFetchError || signal.aborted) return error;
  const code = (error as { code?: string }).code ?? "";
  let message: string;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ENODATA")
    message = `The sheet's host name (${host}) could not be found. Check the link.`;
  else if (code === "ECONNREFUSED") message = `The sheet's server (${host}) refused the connection.`;
  else if (code === "ECONNRESET" || code === "EPIPE" || /hang up|aborted/i.test(String((error as Error).message)))
    message = `The connection to the sheet's server (${host}) was cut before the sheet arrived.`;
  else if (code === "ETIMEDOUT" || code === "EHOSTUNREACH" || code === "ENETUNREACH")
    message = `The sheet's server (${host}) could not be reached.`;
  else if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code))
    message = `The sheet's server (${host}) has no valid https certificate, so Unheard did not trust it.`;
  else message = `The sheet could not be fetched from ${host}${code ? ` (${code})` : ""}.`;
  return new SheetFetchError("network", message);
}

function tooLarge(maxBytes: number): SheetFetchError {
  const size =
    maxBytes >= 1024 * 1024
      ? `${Number((maxBytes / (1024 * 1024)).toFixed(1))} MB`
      : `${Number((maxBytes / 1024).toFixed(1))} KB`;
  return new SheetFetchError(
    "too_large",
    `The sheet is larger than ${size}, the most Unheard reads. Remove tabs or rows it does not need, or split it.`,
  );
}

function seconds(ms: number): string {
  const s = Number((ms / 1000).toFixed(1));
  return `${s} second${s === 1 ? "" : "s"}`;
}

/** `promise`, or a rejection as soon as `signal` aborts (a DNS lookup cannot itself be cancelled). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
