import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect } from "@playwright/test";
import { dataDir } from "./env";

/** Undo quoted-printable encoding: soft line breaks ("=\n") and escaped bytes ("=3D"). */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i] ?? "", "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The decoded text of an .eml file (headers plus body). */
export function emlText(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = split >= 0 ? raw.slice(0, split) : raw;
  const body = split >= 0 ? raw.slice(split).trimStart() : "";
  if (/^content-transfer-encoding:\s*base64/im.test(headers)) {
    return `${headers}\n\n${Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")}`;
  }
  if (/^content-transfer-encoding:\s*quoted-printable/im.test(headers)) {
    return `${headers}\n\n${decodeQuotedPrintable(body)}`;
  }
  return raw;
}

/** Newest outbox file addressed to `to` (in `root`'s outbox: the suite's server by default), decoded; undefined when none has arrived yet. */
async function newestMailTo(to: string, root = dataDir()): Promise<string | undefined> {
  const dir = path.join(root, "mail");
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    return undefined;
  }
  // Names are "<ISO time>-<recipient>.eml", so a plain sort is chronological.
  const mine = files.filter((f) => f.endsWith(`-${to}.eml`)).sort();
  const newest = mine.at(-1);
  if (!newest) return undefined;
  return emlText(await readFile(path.join(dir, newest), "utf8"));
}

/** Count of outbox files addressed to `to`. */
export async function mailCount(to: string): Promise<number> {
  try {
    return (await readdir(path.join(dataDir(), "mail"))).filter((f) => f.endsWith(`-${to}.eml`)).length;
  } catch {
    return 0;
  }
}

/**
 * Wait for a mail to `to` whose body holds a link containing `pathPart`; returns that link. `dataDir`: the data
 * folder of a server a spec started itself.
 */
export async function waitForMailLink(
  to: string,
  pathPart: string,
  opts: { after?: number; dataDir?: string } = {},
): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        if (opts.after !== undefined && (await mailCount(to)) <= opts.after) return undefined;
        const text = await newestMailTo(to, opts.dataDir);
        const escaped = pathPart.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        link = text?.match(new RegExp(`https?://[^\\s"'<>]*${escaped}[^\\s"'<>]*`))?.[0];
        return link;
      },
      { message: `a mail to ${to} with a ${pathPart} link`, timeout: 10_000 },
    )
    .toBeTruthy();
  return link ?? "";
}
