import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";
import * as m0001 from "./migrations/0001_initial.js";
import * as m0002 from "./migrations/0002_search_and_feeds.js";
import * as m0003 from "./migrations/0003_artists_and_notifications.js";
import * as m0004 from "./migrations/0004_audio_matching.js";
import * as m0005 from "./migrations/0005_search_words_and_ranking.js";
import * as m0006 from "./migrations/0006_trending_counter.js";
import * as m0007 from "./migrations/0007_vote_eligibility.js";
import * as m0008 from "./migrations/0008_trust_and_rings.js";
import * as m0009 from "./migrations/0009_tracker_data.js";
import * as m0010 from "./migrations/0010_song_audio_match_index.js";
import * as m0011 from "./migrations/0011_fingerprint_covering_index.js";
import * as m0012 from "./migrations/0012_name_keys_fold_lookalikes.js";
import * as m0013 from "./migrations/0013_credit_count.js";
import * as m0014 from "./migrations/0014_vote_and_trust_indexes.js";
import * as m0015 from "./migrations/0015_tracker_details.js";
import * as m0016 from "./migrations/0016_play_counts.js";
import * as m0017 from "./migrations/0017_fingerprint_hash_counts.js";
import * as m0018 from "./migrations/0018_tracker_sync.js";
import * as m0019 from "./migrations/0019_drop_old_search_tables.js";
import * as m0020 from "./migrations/0020_invariant_index.js";
import * as m0021 from "./migrations/0021_report_clips.js";
import type { DB } from "./schema.js";

/** Migrations are imported, not read from disk, so the same set runs from source, tests and builds. */
const migrations: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_search_and_feeds": m0002,
  "0003_artists_and_notifications": m0003,
  "0004_audio_matching": m0004,
  "0005_search_words_and_ranking": m0005,
  "0006_trending_counter": m0006,
  "0007_vote_eligibility": m0007,
  "0008_trust_and_rings": m0008,
  "0009_tracker_data": m0009,
  "0010_song_audio_match_index": m0010,
  "0011_fingerprint_covering_index": m0011,
  "0012_name_keys_fold_lookalikes": m0012,
  "0013_credit_count": m0013,
  "0014_vote_and_trust_indexes": m0014,
  "0015_tracker_details": m0015,
  "0016_play_counts": m0016,
  "0017_fingerprint_hash_counts": m0017,
  "0018_tracker_sync": m0018,
  "0019_drop_old_search_tables": m0019,
  "0020_invariant_index": m0020,
  "0021_report_clips": m0021,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Bring the schema to the latest migration; returns the names applied. */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
