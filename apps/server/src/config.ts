import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  IDENTIFY_LIMITS,
  IMPORT_LIMITS,
  PLAY_LIMITS,
  PUBLIC_API_LIMITS,
  REPORTS_PER_MINUTE,
  SUGGESTIONS_PER_MINUTE,
} from "@unheard/shared";
import { z } from "zod";
import { isNetwork } from "./lib/sheet-fetch.js";

const bool = (fallback: boolean) =>
  z
    .enum(["true", "false", "1", "0", "on", "off", "yes", "no", ""])
    .optional()
    .transform((v) => (v === undefined || v === "" ? fallback : ["true", "1", "on", "yes"].includes(v)));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  SQLITE_SYNCHRONOUS: z.enum(["full", "normal"]).default("full"),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^postgres(ql)?:\/\//.test(v), "must start with postgres:// (or be unset for SQLite)"),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  SUPER_ADMIN_EMAIL: z.email().optional(),
  SMTP_URL: z
    .string()
    .optional()
    .refine((v) => !v || /^smtps?:\/\//.test(v), "must start with smtp:// or smtps://"),
  MAIL_FROM: z.string().min(3).default("Unheard <no-reply@unheard.local>"),
  WAITLIST_GATE: bool(true),
  SEED_DEMO: bool(true),
  DEMO_SONGS: z.coerce.number().int().min(16).max(5000).default(300),
  DEMO_CACHE_DIR: z.string().min(1).optional(),
  LOG_FORMAT: z.enum(["auto", "pretty", "json"]).default("auto"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: bool(false),
  MAX_UPLOAD_MB: z.coerce.number().positive().max(2048).default(200),
  MAX_AUDIO_MINUTES: z.coerce.number().positive().max(1440).default(120),
  AUDIO_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  AUDIO_QUEUE: z.coerce.number().int().min(0).max(10_000).default(8),
  AUDIO_JOB_SECONDS: z.coerce.number().positive().max(86_400).default(180),
  WARP_ROW_BUDGET: z.coerce.number().int().min(0).optional(),
  SOUNDCLOUD_CLIENT_ID: z.string().min(1).optional(),
  SOUNDCLOUD_API_URL: z.url({ protocol: /^https?$/ }).default("https://api-v2.soundcloud.com"),
  SOUNDCLOUD_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  VOTES_PER_MINUTE: z.coerce.number().int().positive().default(30),
  SUGGESTIONS_PER_MINUTE: z.coerce.number().int().positive().default(SUGGESTIONS_PER_MINUTE),
  REPORTS_PER_MINUTE: z.coerce.number().int().positive().default(REPORTS_PER_MINUTE),
  VOTE_MIN_ACCOUNT_DAYS: z.coerce.number().min(0).max(365).default(7),
  VOTE_MIN_RECORD: z.coerce.number().int().min(0).max(1000).default(3),
  CONTESTED_OPEN_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 90)
    .default(48),
  DAILY_CAPS: bool(true),
  DIRECT_VERIFY_TRUST: z.coerce.number().int().min(0).max(3).default(0),
  AUTH_LIMIT_SCALE: z.coerce.number().positive().max(1000).default(1),
  PUBLIC_RATE_LIMIT: z.coerce.number().int().min(0).default(PUBLIC_API_LIMITS.readsPerMinute),
  EXPORT_RATE_LIMIT: z.coerce.number().int().min(0).default(PUBLIC_API_LIMITS.exportsPerMinute),
  PAGE_CACHE_MB: z.coerce.number().int().min(1).max(4096).default(48),
  PLAY_STARTS_PER_MINUTE: z.coerce.number().int().min(0).default(PLAY_LIMITS.startsPerMinute),
  PLAY_REPORTS_PER_MINUTE: z.coerce.number().int().min(0).default(PLAY_LIMITS.reportsPerMinute),
  EVENT_STREAMS_PER_ADDRESS: z.coerce.number().int().min(0).default(16),
  EVENT_STREAMS_PER_USER: z.coerce.number().int().min(0).default(8),
  IDENTIFY_PER_MEMBER_HOUR: z.coerce.number().int().min(0).default(IDENTIFY_LIMITS.perMemberHour),
  IDENTIFY_PER_ADDRESS_HOUR: z.coerce.number().int().min(0).default(IDENTIFY_LIMITS.perAddressHour),
  SHEET_FETCH_ALLOW_HTTP: bool(false),
  SHEET_FETCH_ALLOW_NETWORKS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean),
    )
    .refine((nets) => nets.every(isNetwork), "must be comma-separated networks such as 10.0.0.0/8 or fd00::/8"),
  SHEET_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
  SHEET_FETCH_MAX_MB: z.coerce.number().positive().max(1024).default(IMPORT_LIMITS.maxMb),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "must be a bucket name (3-63 of a-z, 0-9, '.', '-')")
    .optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(["true", "false", "1", "0", "on", "off", "yes", "no"])
    .optional()
    .transform((v) => (v === undefined ? undefined : ["true", "1", "on", "yes"].includes(v))),
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._/-]*$/, "may only contain letters, digits, '.', '_', '-' and '/'")
    .default("audio/"),
});

/** Every environment variable the server reads. */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape);

/** Parsed, checked settings of one server process. */
export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** SQLite's fsync policy under WAL: full = every commit is on disk before it is answered (decision 016). */
  sqliteSynchronous: "full" | "normal";
  publicUrl: string;
  authSecret: string;
  superAdminEmail: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  waitlistGate: boolean;
  seedDemo: boolean;
  /** Songs in the demo catalogue seeded on an empty database (the 16 hand-written demo songs included). */
  demoSongs: number;
  /** Where rendered demo audio is kept between seeds (default $DATA_DIR/demo-cache); may be shared. */
  demoCacheDir: string;
  /** auto: readable lines on a terminal, JSON lines otherwise; or always one of them. */
  logFormat: "auto" | "pretty" | "json";
  logLevel: string;
  webDist: string | undefined;
  trustProxy: boolean;
  maxUploadMb: number;
  /** Issue 24: audio work (decoding, measuring, fingerprinting) runs on worker threads within these budgets. */
  audio: {
    /** The longest audio accepted; a decode stops as soon as it passes this. */
    maxMinutes: number;
    /** Worker threads (default: the cores less one, 1 to 4). */
    workers: number;
    /** Uploads and recognitions waiting for a worker before more are answered 503. */
    queue: number;
    /** A job running longer than this is stopped (its worker replaced) and the file refused. */
    jobSeconds: number;
    /** Rows the warped recognition's search may read, rarest hashes first (decision 029); unset: the default. */
    warpRowBudget: number | undefined;
  };
  soundcloudClientId: string | undefined;
  soundcloudApiUrl: string;
  soundcloudTimeoutMs: number;
  votesPerMinute: number;
  /** Edit suggestions one member may send per minute (issue 24). */
  suggestionsPerMinute: number;
  /** Reports one member may file per minute (issue 24). */
  reportsPerMinute: number;
  /** Decision 014: a vote counts only from a member this many days old… */
  voteMinAccountDays: number;
  /** …with this many accepted contributions (verified uploads, approved edits, votes that matched the verdict). */
  voteMinRecord: number;
  /** A song with a counted downvote cannot verify before it has been up this long. */
  contestedOpenHours: number;
  /** Per-member daily caps on votes, reports and uploads, scaled by trust (decision 015). */
  dailyCaps: boolean;
  /** The trust level whose upvote verifies an uncontested song directly; 0 for none (decision 015). */
  directVerifyTrust: number;
  /** Multiplies the login/reset/register limits; for test environments that sign in often from one IP. */
  authLimitScale: number;
  /** Public API reads (songs, artists, search) per client address and minute; 0 = no limit. */
  publicRateLimit: number;
  /** Export downloads per client address and minute; 0 = no limit. */
  exportRateLimit: number;
  /** Memory the shared server-rendered pages may hold (HTML and compressed copies), in bytes (issue 38). */
  pageCacheBytes: number;
  /** Play starts and play reports per client address and minute, counted in memory per process; 0 = no limit. */
  playLimits: { startsPerMinute: number; reportsPerMinute: number };
  /** Live event streams open at once on one instance, per client address and per member; 0 = no limit. */
  eventStreams: { perAddress: number; perUser: number };
  /** Identify (issue 39, decision 032): clips one member, and one client address, may send an hour; 0 = no limit. */
  identify: { perMemberHour: number; perAddressHour: number };
  /** Issue 37: fetching linked tracker sheets (lib/sheet-fetch.ts). */
  sheetFetch: {
    /** Follow http:// links too; https only by default. */
    allowHttp: boolean;
    /** Networks (CIDR) fetched from although private or loopback; for tests and private deployments. */
    allowNetworks: string[];
    /** A whole fetch (every redirect, the headers and the body) ends within this long. */
    timeoutMs: number;
    /** The largest sheet read; a longer one is cut off and refused. */
    maxMb: number;
  };
  /** S3-compatible object storage for audio; undefined = local files in $DATA_DIR/audio. */
  s3: S3Config | undefined;
};

/** Where audio goes when S3_BUCKET is set. */
export type S3Config = {
  bucket: string;
  /** Unset = AWS S3 itself (in `region`); set for MinIO, Ceph, R2, Garage, ... */
  endpoint: string | undefined;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** https://endpoint/bucket/key instead of https://bucket.endpoint/key (most self-hosted stores want this). */
  forcePathStyle: boolean;
  /** Prepended to every object key, so the bucket can hold other things too. */
  prefix: string;
};

/** A bad setting; its message is one line naming the variable. */
export class ConfigError extends Error {}

/** Parse the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings in .env files mean "unset", not "invalid".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    throw new ConfigError(`Invalid ${name}: ${issue?.message ?? "bad value"} (got ${JSON.stringify(env[name] ?? "")})`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    publicUrl: (e.PUBLIC_URL ?? localUrl(e.HOST, e.PORT)).replace(/\/+$/, ""),
    authSecret: e.AUTH_SECRET ?? readOrCreateSecret(dataDir),
    superAdminEmail: e.SUPER_ADMIN_EMAIL?.toLowerCase(),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    waitlistGate: e.WAITLIST_GATE,
    seedDemo: e.SEED_DEMO,
    demoSongs: e.DEMO_SONGS,
    demoCacheDir: path.resolve(e.DEMO_CACHE_DIR ?? path.join(dataDir, "demo-cache")),
    logFormat: e.LOG_FORMAT,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    trustProxy: e.TRUST_PROXY,
    maxUploadMb: e.MAX_UPLOAD_MB,
    audio: {
      maxMinutes: e.MAX_AUDIO_MINUTES,
      workers: e.AUDIO_WORKERS ?? Math.max(1, Math.min(4, os.availableParallelism() - 1)),
      queue: e.AUDIO_QUEUE,
      jobSeconds: e.AUDIO_JOB_SECONDS,
      warpRowBudget: e.WARP_ROW_BUDGET,
    },
    soundcloudClientId: e.SOUNDCLOUD_CLIENT_ID,
    soundcloudApiUrl: e.SOUNDCLOUD_API_URL.replace(/\/+$/, ""),
    soundcloudTimeoutMs: e.SOUNDCLOUD_TIMEOUT_MS,
    votesPerMinute: e.VOTES_PER_MINUTE,
    suggestionsPerMinute: e.SUGGESTIONS_PER_MINUTE,
    reportsPerMinute: e.REPORTS_PER_MINUTE,
    voteMinAccountDays: e.VOTE_MIN_ACCOUNT_DAYS,
    voteMinRecord: e.VOTE_MIN_RECORD,
    contestedOpenHours: e.CONTESTED_OPEN_HOURS,
    dailyCaps: e.DAILY_CAPS,
    directVerifyTrust: e.DIRECT_VERIFY_TRUST,
    authLimitScale: e.AUTH_LIMIT_SCALE,
    publicRateLimit: e.PUBLIC_RATE_LIMIT,
    exportRateLimit: e.EXPORT_RATE_LIMIT,
    pageCacheBytes: e.PAGE_CACHE_MB * 1024 * 1024,
    playLimits: { startsPerMinute: e.PLAY_STARTS_PER_MINUTE, reportsPerMinute: e.PLAY_REPORTS_PER_MINUTE },
    eventStreams: { perAddress: e.EVENT_STREAMS_PER_ADDRESS, perUser: e.EVENT_STREAMS_PER_USER },
    identify: { perMemberHour: e.IDENTIFY_PER_MEMBER_HOUR, perAddressHour: e.IDENTIFY_PER_ADDRESS_HOUR },
    sheetFetch: {
      allowHttp: e.SHEET_FETCH_ALLOW_HTTP,
      allowNetworks: e.SHEET_FETCH_ALLOW_NETWORKS,
      timeoutMs: e.SHEET_FETCH_TIMEOUT_MS,
      maxMb: e.SHEET_FETCH_MAX_MB,
    },
    s3: s3Config(e, env),
  };
}

/**
 * The address of a server listening on `host`, for a browser on this machine: the one the terminal prints and
 * e-mailed links use (PUBLIC_URL's default). Loopback and "every interface" become localhost, so there is one
 * host name to browse at: sessions are cookies, kept per host name, so a link to 127.0.0.1 opened after
 * signing in at localhost would find no session.
 */
export function localUrl(host: string, port: number): string {
  const bare = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const local =
    bare === "localhost" ||
    bare === "0.0.0.0" ||
    bare === "::" ||
    bare === "::1" ||
    bare === "::ffff:127.0.0.1" ||
    /^127\.\d+\.\d+\.\d+$/.test(bare);
  const name = local ? "localhost" : bare.includes(":") ? `[${bare}]` : bare;
  return `http://${name}:${port}`;
}

/** S3_BUCKET switches object storage on; then the credentials are required, and S3 settings without it are an error. */
function s3Config(e: z.infer<typeof envSchema>, env: NodeJS.ProcessEnv): S3Config | undefined {
  const missing = (name: string, why: string) =>
    new ConfigError(`Invalid ${name}: ${why} (got ${JSON.stringify(env[name] ?? "")})`);
  if (!e.S3_BUCKET) {
    const stray = ["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"].find((n) => env[n]);
    if (stray) throw missing("S3_BUCKET", `required when ${stray} is set (unset every S3_ setting for local files)`);
    return undefined;
  }
  if (!e.S3_ACCESS_KEY_ID) throw missing("S3_ACCESS_KEY_ID", "required when S3_BUCKET is set");
  if (!e.S3_SECRET_ACCESS_KEY) throw missing("S3_SECRET_ACCESS_KEY", "required when S3_BUCKET is set");
  const prefix = e.S3_PREFIX.replace(/^\/+/, "");
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT?.replace(/\/+$/, ""),
    region: e.S3_REGION,
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    // Self-hosted stores rarely have wildcard DNS for bucket subdomains; AWS prefers virtual-hosted style.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
    prefix,
  };
}

/** A fresh machine needs no setup: the secret is generated once and kept in DATA_DIR. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
