// What the soak's orchestrator (bench/soak.ts) hands its load-generator process (bench/lib/soak-load.ts) and
// what comes back, as JSON files: the two never share memory, so the load generator's own allocations never
// show in the server's figures, and the orchestrator only samples and checks.
import type { Pair } from "./api-load.js";

/** A song the load may read (and vote on, favourite or report). */
export type PlanSong = {
  id: string;
  submittedBy: string | null;
  audioUrl: string | null;
  audioSize: number;
  artistIds: string[];
};

/** A signed-in member: their session cookie and id. */
export type PlanMember = { id: string; cookie: string };

export type SoakPlan = {
  base: string;
  seconds: number;
  /** Requests started per second, whatever the answers take (open loop). */
  rate: number;
  seed: number;
  /** Members who vote, favourite and report. */
  members: PlanMember[];
  /** The member who uploads (never votes, so never on their own song). */
  uploader: PlanMember;
  songs: PlanSong[];
  queries: string[];
  /** Live event streams held open for the whole run (as the members' browsers do). */
  streams: number;
  out: string;
};

export type SoakResult = {
  /** Per request: [send time ms since start, latency ms, status (0: no answer), kind index]. */
  samples: [number, number, number, number][];
  kinds: string[];
  /** Requests not sent because too many were still unanswered (the server fell behind). */
  skipped: number;
  /** Wall time of the load in seconds, and requests sent. */
  elapsed: number;
  sent: number;
  favorites: Pair[];
  votes: Pair[];
  uploads: string[];
  /** Events received on the open streams. */
  events: number;
  /** Errors of the first few failed requests, for the report. */
  errors: string[];
};
