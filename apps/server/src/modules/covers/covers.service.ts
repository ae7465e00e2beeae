// Cover art for every song, generated from its title and artists: a palette, a composition (rings, stripes,
// halftone, blobs, level bars, peaks, a Bauhaus grid) and the title set in it, all chosen by a hash of the
// words, so the same song always gets the same cover and an edited title a new one. Plain SVG, no script, no
// external reference: every piece of text is escaped.
import { createHash } from "node:crypto";
import { hashString, seededRandom } from "@unheard/shared";
import type { Database } from "../../db/database.js";

/** Bumped when the artwork changes, so browsers fetch the new covers (the URL carries it). */
export const COVER_VERSION = 1;
export const COVER_SIZE = 512;

/** The version part of a cover URL: changes with the title, the credited artists and the artwork. */
export function coverVersion(title: string, artists: readonly string[]): string {
  return createHash("sha256")
    .update(`${COVER_VERSION}\u0000${title}\u0000${artists.join("\u0000")}`)
    .digest("hex")
    .slice(0, 12);
}

/** Where a song's cover is served; the query changes whenever the cover would. */
export function coverUrl(songId: string, title: string, artists: readonly string[]): string {
  return `/api/songs/${encodeURIComponent(songId)}/cover.svg?v=${coverVersion(title, artists)}`;
}

/** XML text: markup characters escaped, characters XML cannot hold dropped. */
export function escapeXml(s: string): string {
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what XML 1.0 forbids.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
      .replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c)
  );
}

/** FNV-1a, then mulberry32: a small deterministic random stream per cover. */
const stream = (text: string) => seededRandom(hashString(text));

const STYLES = ["rings", "stripes", "halftone", "blobs", "bars", "peaks", "tiles"] as const;
type CoverStyle = (typeof STYLES)[number];

const f1 = (n: number) => Math.round(n * 10) / 10;

/** Greedy word wrap to `max` characters a line, at most `lines` lines (the last ends in "…" if cut). */
function wrap(text: string, max: number, lines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let cur = "";
  for (let w of words) {
    while (w.length > max) {
      if (cur) {
        out.push(cur);
        cur = "";
      }
      out.push(w.slice(0, max));
      w = w.slice(max);
    }
    if (!cur) cur = w;
    else if (cur.length + 1 + w.length <= max) cur += ` ${w}`;
    else {
      out.push(cur);
      cur = w;
    }
  }
  if (cur) out.push(cur);
  if (out.length > lines) {
    const kept = out.slice(0, lines);
    const last = kept[lines - 1] ?? "";
    kept[lines - 1] = `${last.slice(0, Math.max(1, max - 1)).trimEnd()}…`;
    return kept;
  }
  return out;
}

/** The cover of a song as an SVG document. */
export function renderCover(title: string, artists: readonly string[]): string {
  const S = COVER_SIZE;
  const r = stream(`${title}\u0000${artists.join(", ")}`);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length) % list.length] as T;
  const between = (lo: number, hi: number) => lo + r() * (hi - lo);

  // Palette: a base hue and partners (analogous, complementary, triadic or split), saturated mid tones.
  const hue = Math.floor(r() * 360);
  const offset = pick([30, 150, 180, 120, 210]);
  const sat = Math.round(between(55, 85));
  const hsl = (h: number, s: number, l: number) => `hsl(${Math.round(((h % 360) + 360) % 360)} ${s}% ${l}%)`;
  const c1 = hsl(hue, sat, Math.round(between(42, 58)));
  const c2 = hsl(hue + offset, sat, Math.round(between(45, 62)));
  const c3 = hsl(hue - offset / 2, Math.min(95, sat + 10), Math.round(between(55, 72)));
  const deep = hsl(hue + 15, Math.round(between(35, 60)), Math.round(between(8, 16)));
  const pale = hsl(hue + offset, 80, 90);
  const colors = [c1, c2, c3, pale];
  const style: CoverStyle = pick(STYLES);
  const angle = Math.round(between(0, 180));

  const art: string[] = [];
  switch (style) {
    case "rings": {
      const cx = f1(between(140, 372));
      const cy = f1(between(110, 260));
      const n = Math.floor(between(6, 12));
      for (let i = n; i > 0; i--) {
        const radius = f1((i / n) * between(220, 300));
        art.push(
          `<circle cx="${cx}" cy="${cy}" r="${radius}" fill="none" stroke="${colors[i % 3]}" stroke-width="${f1(between(4, 22))}" opacity="${f1(between(0.5, 0.95))}"/>`,
        );
      }
      art.push(`<circle cx="${cx}" cy="${cy}" r="${f1(between(26, 60))}" fill="${c3}"/>`);
      break;
    }
    case "stripes": {
      const w = Math.floor(between(18, 56));
      const parts = [`<g transform="rotate(${angle} ${S / 2} ${S / 2})">`];
      for (let x = -S; x < S * 2; x += w * 2)
        parts.push(
          `<rect x="${x}" y="${-S}" width="${f1(w * between(0.4, 1))}" height="${S * 3}" fill="${pick(colors)}" opacity="${f1(between(0.35, 0.9))}"/>`,
        );
      parts.push("</g>");
      art.push(parts.join(""));
      break;
    }
    case "halftone": {
      const step = pick([24, 28, 32]);
      const fx = between(0, S);
      const fy = between(0, S * 0.6);
      const reach = between(300, 520);
      const dot = pick([c3, pale, c2]);
      for (let y = step / 2; y < S; y += step)
        for (let x = step / 2; x < S; x += step) {
          const d = Math.hypot(x - fx, y - fy) / reach;
          const radius = f1(Math.max(0, (1 - d) * step * 0.48));
          if (radius > 0.6) art.push(`<circle cx="${x}" cy="${y}" r="${radius}" fill="${dot}"/>`);
        }
      break;
    }
    case "blobs": {
      const n = Math.floor(between(3, 6));
      for (let i = 0; i < n; i++)
        art.push(
          `<circle cx="${f1(between(0, S))}" cy="${f1(between(0, S * 0.8))}" r="${f1(between(90, 230))}" fill="${colors[i % colors.length]}" opacity="${f1(between(0.45, 0.8))}" style="mix-blend-mode:screen"/>`,
        );
      break;
    }
    case "bars": {
      const n = Math.floor(between(16, 32));
      const gap = 4;
      const w = (S - 48 - gap * (n - 1)) / n;
      let level = between(0.3, 0.7);
      for (let i = 0; i < n; i++) {
        level = Math.min(0.95, Math.max(0.08, level + between(-0.22, 0.22)));
        const h = level * S * 0.55;
        art.push(
          `<rect x="${f1(24 + i * (w + gap))}" y="${f1(S * 0.62 - h)}" width="${f1(w)}" height="${f1(h * 1.25)}" rx="${f1(w / 2)}" fill="${i % 4 === 0 ? c3 : c2}" opacity="${f1(between(0.6, 1))}"/>`,
        );
      }
      break;
    }
    case "peaks": {
      art.push(
        `<circle cx="${f1(between(90, 420))}" cy="${f1(between(90, 180))}" r="${f1(between(40, 80))}" fill="${pale}" opacity=".9"/>`,
      );
      const layers = Math.floor(between(3, 5));
      for (let l = 0; l < layers; l++) {
        const base = S * (0.45 + l * 0.12);
        const pts: string[] = [`0,${S}`];
        for (let x = 0; x <= S; x += S / 8) pts.push(`${f1(x)},${f1(base - between(0, 120 - l * 20))}`);
        pts.push(`${S},${S}`);
        art.push(
          `<polygon points="${pts.join(" ")}" fill="${[c2, c1, c3, deep][l % 4]}" opacity="${f1(0.55 + l * 0.12)}"/>`,
        );
      }
      break;
    }
    case "tiles": {
      const n = pick([3, 4]);
      const t = S / n;
      for (let y = 0; y < n; y++)
        for (let x = 0; x < n; x++) {
          const X = x * t;
          const Y = y * t;
          const fill = pick(colors);
          const kind = Math.floor(r() * 4);
          const corner = Math.floor(r() * 4);
          const cx = X + (corner % 2) * t;
          const cy = Y + Math.floor(corner / 2) * t;
          if (kind === 0)
            art.push(
              `<circle cx="${f1(cx)}" cy="${f1(cy)}" r="${f1(t)}" fill="${fill}" clip-path="url(#t${x}${y})" opacity=".9"/>`,
            );
          else if (kind === 1)
            art.push(
              `<circle cx="${f1(X + t / 2)}" cy="${f1(Y + t / 2)}" r="${f1(t * 0.38)}" fill="${fill}" opacity=".9"/>`,
            );
          else if (kind === 2)
            art.push(
              `<polygon points="${f1(X)},${f1(Y + t)} ${f1(X + t)},${f1(Y + t)} ${f1(corner % 2 ? X : X + t)},${f1(Y)}" fill="${fill}" opacity=".85"/>`,
            );
          else
            art.push(
              `<rect x="${f1(X + t * 0.15)}" y="${f1(Y + t * 0.15)}" width="${f1(t * 0.7)}" height="${f1(t * 0.7)}" fill="${fill}" opacity=".8"/>`,
            );
        }
      // Quarter circles stay in their tile.
      const clips: string[] = [];
      for (let y = 0; y < n; y++)
        for (let x = 0; x < n; x++)
          clips.push(
            `<clipPath id="t${x}${y}"><rect x="${f1(x * t)}" y="${f1(y * t)}" width="${f1(t)}" height="${f1(t)}"/></clipPath>`,
          );
      art.unshift(`<defs>${clips.join("")}</defs>`);
      break;
    }
  }

  // The title, large, over a shade at the bottom; the artists under it.
  const name = title.trim() || "Untitled";
  const size = name.length <= 12 ? 60 : name.length <= 24 ? 48 : name.length <= 44 ? 38 : 30;
  const maxChars = Math.max(6, Math.floor((S - 64) / (size * 0.58)));
  const lines = wrap(name, maxChars, 4);
  const credit = artists.join(", ") || "Unknown artist";
  const shortCredit = credit.length > 38 ? `${credit.slice(0, 37).trimEnd()}…` : credit;
  const lineHeight = size * 1.08;
  const bottom = S - 40;
  const artistY = bottom;
  const firstY = artistY - 40 - (lines.length - 1) * lineHeight;
  const text = lines
    .map((l, i) => `<text x="32" y="${f1(firstY + i * lineHeight)}" class="t">${escapeXml(l)}</text>`)
    .join("");

  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}" viewBox="0 0 ${S} ${S}" role="img" aria-label="${escapeXml(`${name} by ${credit}`)}">`,
    `<title>${escapeXml(`${name} by ${credit}`)}</title>`,
    "<defs>",
    `<linearGradient id="bg" gradientTransform="rotate(${angle} .5 .5)"><stop offset="0" stop-color="${c1}"/><stop offset="1" stop-color="${deep}"/></linearGradient>`,
    `<linearGradient id="shade" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity=".72"/></linearGradient>`,
    `<style>.t{font:800 ${size}px/1 'Inter','Helvetica Neue',Arial,sans-serif;fill:#fff;letter-spacing:-.01em}.a{font:600 22px 'Inter','Helvetica Neue',Arial,sans-serif;fill:#fff;opacity:.85}.m{font:700 13px 'Inter','Helvetica Neue',Arial,sans-serif;fill:#fff;opacity:.7;letter-spacing:.3em}</style>`,
    "</defs>",
    `<rect width="${S}" height="${S}" fill="url(#bg)"/>`,
    ...art,
    `<rect y="${f1(firstY - size - 40)}" width="${S}" height="${f1(S - (firstY - size - 40))}" fill="url(#shade)"/>`,
    `<text x="${S - 28}" y="40" text-anchor="end" class="m">UNHEARD</text>`,
    text,
    `<text x="32" y="${f1(artistY)}" class="a">${escapeXml(shortCredit)}</text>`,
    "</svg>",
  ].join("");
}

/** A song's cover facts: title, credited artists in order, what its visibility depends on; undefined for an unknown song. */
export async function coverSubject(
  database: Database,
  songId: string,
): Promise<
  { title: string; artists: string[]; status: string; is_hidden: boolean; submitted_by: string | null } | undefined
> {
  const { db } = database;
  const song = await db
    .selectFrom("song")
    .select(["title", "is_hidden", "status", "submitted_by"])
    .where("id", "=", songId)
    .executeTakeFirst();
  if (!song) return undefined;
  const credits = await db
    .selectFrom("song_artist")
    .innerJoin("user", "user.id", "song_artist.artist_id")
    .select(["user.username"])
    .where("song_artist.song_id", "=", songId)
    .orderBy("song_artist.position")
    .execute();
  return {
    title: song.title,
    artists: credits.map((c) => c.username),
    status: song.status,
    is_hidden: Boolean(song.is_hidden),
    submitted_by: song.submitted_by,
  };
}
