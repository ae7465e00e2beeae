// For the open data export's tests: many verified songs written straight into the tables (no upload, no audio:
// the tests need a catalogue's size rather than its history), and a CSV reader to check what was exported (also by
// the browser test, e2e/open-data.spec.ts).
import type { Kysely } from "kysely";
import type { DB } from "../db/schema.js";
import { nameKey } from "../lib/text.js";

/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits at the song's column count. */
const CHUNK = 500;

/**
 * `count` verified songs with ids `${prefix}000000…`, credited to `artists` placeholder artists in turn, with
 * leak details on every song (commas, quotes and line breaks in some of them, for the CSV quoting). Returns
 * the song ids in id order.
 */
export async function insertVerifiedSongs(
  db: Kysely<DB>,
  count: number,
  opts: { prefix?: string; artists?: number } = {},
): Promise<string[]> {
  const prefix = opts.prefix ?? "bulk";
  const artistCount = opts.artists ?? 50;
  const at = new Date("2024-06-01T12:00:00.000Z").toISOString();
  const artistIds = Array.from({ length: artistCount }, (_, i) => `${prefix}artist${String(i).padStart(4, "0")}`);
  for (let i = 0; i < artistIds.length; i += CHUNK) {
    await db
      .insertInto("user")
      .values(
        artistIds.slice(i, i + CHUNK).map((id, k) => {
          const name = `${prefix} Artist ${i + k}`;
          return {
            id,
            name,
            email: `${id}@placeholder.invalid`,
            email_verified: false,
            created_at: at,
            updated_at: at,
            username: name,
            username_key: nameKey(name),
            is_artist: true,
            is_placeholder: true,
          };
        }),
      )
      .execute();
  }
  const ids: string[] = [];
  for (let i = 0; i < count; i += CHUNK) {
    const n = Math.min(CHUNK, count - i);
    const rows = Array.from({ length: n }, (_, k) => {
      const j = i + k;
      const id = `${prefix}${String(j).padStart(7, "0")}`;
      ids.push(id);
      const title = `Bulk Song ${j}`;
      return {
        id,
        title,
        title_key: nameKey(title),
        genre: "Rap",
        release_date: j % 3 === 0 ? "2025-01-31" : null,
        soundcloud_url: null,
        status: "verified",
        verified_at: at,
        upvotes: 3 + (j % 7),
        downvotes: j % 2,
        favorite_count: j % 11,
        era: j % 5 === 0 ? "Era, with a comma" : `Era ${j % 4}`,
        producers: JSON.stringify([`Producer ${j % 13}`, "Co Producer"]),
        features: JSON.stringify(j % 2 === 0 ? [`Feature ${j % 9}`] : []),
        leak_date: "2024-05-01",
        availability: "full",
        quality: "high",
        notes: j % 4 === 0 ? 'Said "unreleased"\nin an interview' : null,
        created_at: at,
        updated_at: at,
      };
    });
    await db.insertInto("song").values(rows).execute();
    await db
      .insertInto("song_artist")
      .values(rows.map((r, k) => ({ song_id: r.id, artist_id: artistIds[(i + k) % artistCount] ?? "", position: 0 })))
      .execute();
  }
  return ids;
}

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks); a leading BOM is dropped. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.startsWith("\uFEFF") ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || record.length > 0) records.push([...record, field]);
  return records;
}
