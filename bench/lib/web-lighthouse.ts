// One Lighthouse run (Node API) in Debian's Chromium, launched through chrome-launcher; never downloads a browser.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig } from "lighthouse";
import { CHROMIUM_PATH, HEADLESS_CHROMIUM_FLAGS } from "../../e2e/support/chromium.js";

export type FormFactor = "desktop" | "mobile";

export type Script = { url: string; transferBytes: number; gzipBytes: number };

export type RunFigures = {
  performance: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** Same-origin scripts the page requested up to the load event, gzip-compressed here with zlib (level 6). */
  jsGzipBytes: number;
  /** The same scripts as the server actually sent them (Lighthouse transfer size). */
  jsTransferBytes: number;
  scripts: Script[];
  /** The page's HTML document: its bytes, and as sent (compressed). */
  htmlBytes: number;
  htmlTransferBytes: number;
};

type NetworkItem = {
  url: string;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
  statusCode?: number;
  networkRequestTime?: number;
};

/** gzip size of a built file, looked up by the URL path under apps/web/dist; falls back to the transfer size. */
function gzipOf(url: string, dist: string, fallback: number): number {
  const file = path.join(dist, decodeURIComponent(new URL(url).pathname));
  if (!file.startsWith(dist) || !existsSync(file)) return fallback;
  return gzipSync(readFileSync(file), { level: 6 }).length;
}

/** Load `url` once in a fresh Chromium with Lighthouse's performance category. */
export async function runLighthouse(
  url: string,
  formFactor: FormFactor,
  opts: { dist: string; headers?: Record<string, string> },
): Promise<RunFigures> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [...HEADLESS_CHROMIUM_FLAGS],
    logLevel: "silent",
  });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        logLevel: "error",
        output: "json",
        onlyCategories: ["performance"],
        ...(opts.headers ? { extraHeaders: opts.headers } : {}),
      },
      formFactor === "desktop" ? desktopConfig : undefined,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const numeric = (id: string) => {
      const v = lhr.audits[id]?.numericValue;
      if (typeof v !== "number") throw new Error(`Lighthouse audit ${id} has no value for ${url}`);
      return v;
    };
    const origin = new URL(url).origin;
    // Scripts requested up to the load event: what the route needs to start (idle preloads come later).
    const metrics = lhr.audits.metrics?.details as { items?: { observedLoad?: number }[] } | undefined;
    const loadMs = metrics?.items?.[0]?.observedLoad;
    const details = lhr.audits["network-requests"]?.details as { items?: NetworkItem[] } | undefined;
    const scripts: Script[] = (details?.items ?? [])
      .filter(
        (i) =>
          i.resourceType === "Script" &&
          i.url.startsWith(origin) &&
          (loadMs === undefined || (i.networkRequestTime ?? 0) <= loadMs),
      )
      .map((i) => ({
        url: i.url,
        transferBytes: i.transferSize ?? 0,
        gzipBytes: gzipOf(i.url, opts.dist, i.transferSize ?? 0),
      }));
    const page = (details?.items ?? []).find((i) => i.resourceType === "Document");
    return {
      htmlBytes: page?.resourceSize ?? 0,
      htmlTransferBytes: page?.transferSize ?? 0,
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      lcpMs: numeric("largest-contentful-paint"),
      cls: numeric("cumulative-layout-shift"),
      tbtMs: numeric("total-blocking-time"),
      jsGzipBytes: scripts.reduce((a, s) => a + s.gzipBytes, 0),
      jsTransferBytes: scripts.reduce((a, s) => a + s.transferBytes, 0),
      scripts,
    };
  } finally {
    chrome.kill();
  }
}
