import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import multipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { DEFAULT_WARP_SEARCH } from "@unheard/fingerprint";
import { MESSAGES, matchPageRoute, type PageMatch } from "@unheard/shared";
import Fastify, { type FastifyRequest, type FastifyServerOptions, LogController } from "fastify";
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import type { Database } from "./db/database.js";
import { AppError, frameworkErrorHandler, registerErrorHandler } from "./errors.js";
import type { App } from "./http.js";
import { createAudioPool } from "./lib/audio-pool.js";
import { createCardCache, invalidateCards } from "./lib/card-cache.js";
import { createEventBus, type EventBus } from "./lib/events.js";
import { createJobQueue, type JobQueue } from "./lib/jobs.js";
import { createMailer, type Mailer } from "./lib/mail.js";
import {
  canonicalPage,
  createPageRendering,
  isCanonicalRequest,
  isServerRendered,
  loadBuiltRenderer,
  type PageRendering,
  type RendererModule,
  sendRendered,
  sendTooManyPages,
} from "./lib/page-render.js";
import { createPublicCache, etagOf, invalidateFor } from "./lib/public-cache.js";
import { createRateLimiter } from "./lib/rate-limit.js";
import { securityHeaders } from "./lib/security-headers.js";
import { compileSerializer } from "./lib/serializer.js";
import { sheetFetchPolicy } from "./lib/sheet-fetch.js";
import { createStorage } from "./lib/storage.js";
import { adminRoutes } from "./modules/admin/admin.routes.js";
import { createAdminService } from "./modules/admin/admin.service.js";
import { artistsRoutes } from "./modules/artists/artists.routes.js";
import { createArtistsService } from "./modules/artists/artists.service.js";
import { createTrackerExport } from "./modules/artists/tracker.service.js";
import { createAuth } from "./modules/auth/auth.js";
import { authRoutes } from "./modules/auth/auth.routes.js";
import { createAuthService } from "./modules/auth/auth.service.js";
import { createSessionReader } from "./modules/auth/session-reader.js";
import { createViewerResolver } from "./modules/auth/viewer.js";
import { createChangelogRepo } from "./modules/changelog/changelog.repo.js";
import { changelogRoutes } from "./modules/changelog/changelog.routes.js";
import { createChangelogService } from "./modules/changelog/changelog.service.js";
import { coversRoutes } from "./modules/covers/covers.routes.js";
import { editSuggestionsRoutes } from "./modules/edit-suggestions/edit-suggestions.routes.js";
import { createEditSuggestionsService } from "./modules/edit-suggestions/edit-suggestions.service.js";
import { eventsRoutes } from "./modules/events/events.routes.js";
import { hashCacheDirIn } from "./modules/fingerprints/fingerprint-file.js";
import { createFingerprintsRepo } from "./modules/fingerprints/fingerprints.repo.js";
import { fingerprintsRoutes } from "./modules/fingerprints/fingerprints.routes.js";
import { createFingerprintsService, type FingerprintsService } from "./modules/fingerprints/fingerprints.service.js";
import { createTripletsRepo } from "./modules/fingerprints/triplets.repo.js";
import { healthRoutes } from "./modules/health/health.routes.js";
import { identifyRoutes } from "./modules/identify/identify.routes.js";
import { createIdentifyService } from "./modules/identify/identify.service.js";
import { createBatchApplier } from "./modules/imports/batch-apply.js";
import { createImportsRepo } from "./modules/imports/imports.repo.js";
import { importsRoutes } from "./modules/imports/imports.routes.js";
import { createImportsService } from "./modules/imports/imports.service.js";
import { notificationsRoutes } from "./modules/notifications/notifications.routes.js";
import { createNotifier } from "./modules/notifications/notifications.service.js";
import { documentOpenData, OPEN_DATA_TAGS } from "./modules/open-data/open-data.docs.js";
import { createOpenDataRepo } from "./modules/open-data/open-data.repo.js";
import { openDataRoutes, type PublicLimits } from "./modules/open-data/open-data.routes.js";
import { createOpenDataService } from "./modules/open-data/open-data.service.js";
import { createPlaysRepo } from "./modules/plays/plays.repo.js";
import { playsRoutes } from "./modules/plays/plays.routes.js";
import { createPlaysService } from "./modules/plays/plays.service.js";
import { createReportClips } from "./modules/reports/report-clips.js";
import { reportsRoutes } from "./modules/reports/reports.routes.js";
import { createReportsService } from "./modules/reports/reports.service.js";
import { searchRoutes } from "./modules/search/search.routes.js";
import { createSearchService } from "./modules/search/search.service.js";
import { createSearchEngine } from "./modules/search/search-engine.js";
import { createPageHeads, injectHead, type PageHead } from "./modules/seo/page-head.js";
import { createSeoRepo } from "./modules/seo/seo.repo.js";
import { seoRoutes } from "./modules/seo/seo.routes.js";
import { createSeoService } from "./modules/seo/seo.service.js";
import { createSongsRepo } from "./modules/songs/songs.repo.js";
import { songsRoutes } from "./modules/songs/songs.routes.js";
import { createSongsService } from "./modules/songs/songs.service.js";
import { isPublic, maySee } from "./modules/songs/visibility.js";
import { soundcloudRoutes } from "./modules/soundcloud/soundcloud.routes.js";
import { createSoundcloudService } from "./modules/soundcloud/soundcloud.service.js";
import { createSyncRepo, SYNC_JOB } from "./modules/tracker-sync/sync.repo.js";
import { trackerSyncRoutes } from "./modules/tracker-sync/sync.routes.js";
import { createTrackerSyncService, type TrackerSyncService } from "./modules/tracker-sync/sync.service.js";
import { createTrustService } from "./modules/trust/trust.service.js";
import { createUsersRepo } from "./modules/users/users.repo.js";
import { usersRoutes } from "./modules/users/users.routes.js";
import { createUsersService } from "./modules/users/users.service.js";
import { createVotesRepo } from "./modules/votes/votes.repo.js";
import { votesRoutes } from "./modules/votes/votes.routes.js";
import { createVotesService } from "./modules/votes/votes.service.js";
import { waitlistRoutes } from "./modules/waitlist/waitlist.routes.js";
import { createWaitlistService } from "./modules/waitlist/waitlist.service.js";

/** What the app is built from; tests pass their own. */
export type AppDeps = {
  config: Config;
  database: Database;
  mailer?: Mailer;
  logger?: FastifyServerOptions["logger"];
  /**
   * The web app's server renderer (decision 026). Default: its build beside the web app (apps/web/dist-ssr), when
   * there is one; null: none (the browser renders every page).
   */
  renderer?: RendererModule | null;
  /** Run background work (the job loop, the daily digest); main.ts turns this on, tests drain jobs themselves. */
  background?: boolean;
  /** The clock of the play-count rules (threshold, hourly window; decision 027); tests move it instead of waiting. */
  now?: () => number;
};

declare module "fastify" {
  interface FastifyInstance {
    /** The durable job queue, for tests and maintenance scripts. */
    jobs: JobQueue;
    /** The vote rules' periodic pass (decision 014), for tests and maintenance scripts. */
    voteSweep: (now?: number) => Promise<{ votes: number; songs: number }>;
    /** Build the search index now (at start, in the background) rather than at the first search. */
    warmSearch: () => Promise<void>;
    /** Songs written outside the services (tests, maintenance scripts): the search index reads them again. */
    songsWritten: (ids: string[]) => Promise<void>;
    /** Trackers linked to sheets (issue 37): tests run the scheduler's tick and drain the jobs it queues. */
    trackerSync: TrackerSyncService;
    /** Indexing and recognition (the invariant index's backfill and sweep), for tests and maintenance scripts. */
    fingerprints: FingerprintsService;
    /** Every route registered, as method and URL pattern (the permission matrix checks it covers them all). */
    routeList: () => readonly { method: string; url: string }[];
  }
}

/** How long a visitor's answer may be served from memory when no event has cleared it. */
const PUBLIC_CACHE_TTL_MS = 10_000;
/** Memory visitors' API answers may hold (their JSON and parsed value); the ones asked for most stay (issue 38). */
const PUBLIC_CACHE_BYTES = 32 * 1024 * 1024;

/** How often linked tracker sheets are checked for a due sync (each link has its own interval, 5 minutes at least). */
const SYNC_TICK_MS = 30 * 1000;
/** How often likes and plays older than a week are taken off trending. */
const TRENDING_REFRESH_MS = 10 * 60 * 1000;
/** How often votes are recounted for members who became eligible, and contested songs settled (decision 014). */
const VOTE_SWEEP_MS = 10 * 60 * 1000;

/** Answers slower than this are logged at warn. */
const SLOW_REQUEST_MS = 1000;

const DEFAULT_WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../web/dist");

/** Build the whole server (plugins, routes, error handling); never listens. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // A URL that does not decode is refused before routing; answered in the API's error shape too.
    frameworkErrors: frameworkErrorHandler,
    // Two info lines per request cost more than a cached feed answer; see the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(({ schema }) => compileSerializer(schema));
  registerErrorHandler(app);
  const routes: { method: string; url: string }[] = [];
  app.addHook("onRoute", (r) => {
    for (const method of [r.method].flat()) routes.push({ method, url: r.url });
  });
  app.decorate("routeList", () => routes);
  // Failures are logged by the error handler; here slow answers at warn and every answer at debug.
  const debugRequests = app.log.level === "debug" || app.log.level === "trace";
  app.addHook("onResponse", (req, reply, done) => {
    const ms = reply.elapsedTime;
    if (ms > SLOW_REQUEST_MS) req.log.warn({ url: req.url, statusCode: reply.statusCode, ms }, "slow request");
    else if (debugRequests)
      req.log.debug({ method: req.method, url: req.url, statusCode: reply.statusCode, ms }, "request completed");
    done();
  });

  // Security headers are the same on every answer: computed once, set by one cheap hook.
  const security = securityHeaders({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", "data:", "blob:", "https:"],
        mediaSrc: ["'self'", "blob:"],
        frameSrc: ["https://w.soundcloud.com"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: config.publicUrl.startsWith("https://") ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // HSTS only where the site is served over https: on plain http it would be ignored at best and, for a
    // host later moved behind TLS on another port, lock browsers out at worst.
    ...(config.publicUrl.startsWith("https://") ? {} : { strictTransportSecurity: false }),
  });
  app.addHook("onRequest", (_req, reply, done) => {
    reply.headers(security);
    done();
  });

  await app.register(multipart);

  await app.register(swagger, {
    openapi: {
      info: { title: "Unheard API", version: "1.0.0", description: "Discover, track and verify unreleased songs." },
      components: {
        securitySchemes: { session: { type: "apiKey", in: "cookie", name: "unheard.session_token" } },
      },
      tags: OPEN_DATA_TAGS,
    },
    transform: documentOpenData(jsonSchemaTransform),
  });
  await app.register(swaggerUi, { routePrefix: "/api/docs", staticCSP: true });

  // While shutting down, answers close their connection so keep-alive sockets do not hold the process.
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", (req, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    // JSON answers to GET carry an ETag, so a client that has them gets a 304 without the body.
    if (
      req.method === "GET" &&
      reply.statusCode === 200 &&
      typeof payload === "string" &&
      req.url.startsWith("/api/")
    ) {
      let etag = reply.getHeader("etag");
      if (etag === undefined) {
        etag = etagOf(payload);
        reply.header("etag", etag);
        if (!reply.hasHeader("cache-control")) reply.header("cache-control", "private, no-cache");
        reply.header("vary", "cookie");
      }
      if (req.headers["if-none-match"] === etag) {
        reply.code(304);
        done(null, "");
        return;
      }
    }
    done(null, payload);
  });

  // Cookie sessions + SameSite=Lax still let a same-site page post; refuse writes from foreign origins.
  const allowedOrigin = new URL(config.publicUrl).origin;
  app.addHook("onRequest", async (req) => {
    if (req.method === "GET" || req.method === "HEAD" || req.method === "OPTIONS") return;
    // Browsers mark requests from another site; that holds even when they send no Origin header.
    if (req.headers["sec-fetch-site"] === "cross-site") throw new AppError("forbidden", MESSAGES.forbiddenOrigin);
    const origin = req.headers.origin;
    if (!origin) return;
    const host = req.headers.host;
    if (origin === allowedOrigin || (host && origin.replace(/^https?:\/\//, "") === host)) return;
    throw new AppError("forbidden", MESSAGES.forbiddenOrigin);
  });

  const mailer =
    deps.mailer ??
    createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  const limiter = createRateLimiter(database);
  const auth = createAuth({
    config,
    database,
    mailer,
    onMailError: (err, msg) => app.log.error({ err, to: msg.to, subject: msg.subject }, "account mail failed"),
  });
  const authService = createAuthService({ auth, limiter, limitScale: config.authLimitScale });
  const events = await createEventBus(database, { url: database.url, log: app.log });
  app.addHook("onClose", () => events.close());
  // Visitors' feeds, song pages and searches, shared for a few seconds; a song change clears them (a favourite
  // count only its song's page: feeds may lag by the TTL): here
  // at once when this instance publishes it (so the next read on this instance is fresh even before a
  // PostgreSQL notification comes back), and on every instance when the event arrives.
  const publicCache = createPublicCache({ ttlMs: PUBLIC_CACHE_TTL_MS, maxBytes: PUBLIC_CACHE_BYTES });
  // The search index follows song changes the same way (decision 024).
  const searchEngine = createSearchEngine({ database });
  // Search results' cards, shared the same way (issue 26).
  const cardCache = createCardCache({ ttlMs: PUBLIC_CACHE_TTL_MS, maxEntries: 20_000 });
  // The server-rendered pages (decision 026), made once the web app is known (serveWeb below).
  let pages: PageRendering | undefined;
  events.subscribe((event) => {
    invalidateFor(publicCache, event);
    invalidateCards(cardCache, event);
    pages?.onEvent(event);
    searchEngine.onEvent(event);
  });
  const bus: EventBus = {
    ...events,
    publish(event) {
      invalidateFor(publicCache, event);
      invalidateCards(cardCache, event);
      pages?.onEvent(event);
      searchEngine.onEvent(event);
      return events.publish(event);
    },
  };
  const users = createUsersRepo(database);
  const trust = createTrustService({
    database,
    rules: { minAccountDays: config.voteMinAccountDays, minRecord: config.voteMinRecord, dailyCaps: config.dailyCaps },
  });
  const usersService = createUsersService({ users, waitlistGate: config.waitlistGate, bus, trust });
  const sessions = createSessionReader({
    database,
    secret: config.authSecret,
    secureCookies: config.publicUrl.startsWith("https://"),
  });
  const viewers = createViewerResolver({ authService, sessions, users, waitlistGate: config.waitlistGate });
  const storage = createStorage(config);
  const notifier = createNotifier({ database, bus, mailer, config, log: app.log });
  const jobs = createJobQueue({ database, log: app.log });
  app.decorate("jobs", jobs);
  app.decorate("songsWritten", (ids: string[]) => searchEngine.refresh(ids));
  app.decorate("warmSearch", () => searchEngine.warm());
  // Decoding, measuring and fingerprinting run on worker threads, within budgets (issue 24).
  const audioPool = createAudioPool({
    workers: config.audio.workers,
    queue: config.audio.queue,
    jobMs: config.audio.jobSeconds * 1000,
    maxSeconds: config.audio.maxMinutes * 60,
    log: app.log,
  });
  app.addHook("onClose", () => audioPool.close());
  const fingerprints = createFingerprintsService({
    database,
    repo: createFingerprintsRepo(database),
    triplets: createTripletsRepo(database),
    storage,
    jobs,
    hashCacheDir: hashCacheDirIn(config.demoCacheDir),
    pool: audioPool,
    ...(config.audio.warpRowBudget === undefined
      ? {}
      : { warpSearch: { ...DEFAULT_WARP_SEARCH, rowBudget: config.audio.warpRowBudget } }),
  });
  app.decorate("fingerprints", fingerprints);
  const changelog = createChangelogService({
    database,
    repo: createChangelogRepo(database),
    notifier,
    publicUrl: config.publicUrl,
  });
  const songsService = createSongsService({
    changelog,
    database,
    songs: createSongsRepo(database),
    storage,
    bus,
    notifier,
    audio: { findDuplicate: fingerprints.findDuplicate, enqueue: (songId, trx) => fingerprints.enqueue(songId, trx) },
    trust,
    contestedOpenHours: config.contestedOpenHours,
    decode: (file, format) => audioPool.decode(file, format),
  });
  const artistsService = createArtistsService({ database, songs: songsService, bus });
  const soundcloud = createSoundcloudService({
    clientId: config.soundcloudClientId,
    apiUrl: config.soundcloudApiUrl,
    timeoutMs: config.soundcloudTimeoutMs,
  });
  const votesService = createVotesService({
    database,
    votes: createVotesRepo(database),
    songs: songsService,
    bus,
    limiter,
    notifier,
    votesPerMinute: config.votesPerMinute,
    trust,
    rules: { contestedOpenHours: config.contestedOpenHours, directVerifyLevel: config.directVerifyTrust },
  });

  healthRoutes(app, { database, config });
  authRoutes(app, { authService, usersService, config });
  usersRoutes(app, { authService, usersService });
  eventsRoutes(app, {
    bus,
    viewers,
    usersService,
    unread: (userId) => notifier.unread(userId),
    songVisibility: (id) => songsService.visibilityOf(id),
    limits: config.eventStreams,
  });
  songsRoutes(app, { songsService, viewers, storage, config, publicCache });
  playsRoutes(app, {
    plays: createPlaysService({
      database,
      repo: createPlaysRepo(database),
      bus,
      secret: config.authSecret,
      ...(deps.now ? { now: deps.now } : {}),
    }),
    viewers,
    limits: config.playLimits,
  });
  coversRoutes(app, { database, viewers });
  searchRoutes(app, {
    search: createSearchService({ songs: songsService, engine: searchEngine, cards: cardCache }),
    songs: songsService,
    viewers,
    publicCache,
  });
  artistsRoutes(app, { artists: artistsService, viewers, tracker: createTrackerExport({ database }) });
  notificationsRoutes(app, { notifier, viewers });
  soundcloudRoutes(app, { soundcloud, viewers });
  votesRoutes(app, { votesService, viewers });
  app.decorate("voteSweep", (now?: number) => votesService.sweep(now));
  const reportsService = createReportsService({
    database,
    bus,
    notifier,
    trust,
    votes: votesService,
    limiter,
    perMinute: config.reportsPerMinute,
    clips: createReportClips(config.dataDir),
  });
  reportsRoutes(app, { reportsService, viewers });
  editSuggestionsRoutes(app, {
    suggestions: createEditSuggestionsService({
      database,
      songs: songsService,
      bus,
      notifier,
      limiter,
      trust,
      perMinute: config.suggestionsPerMinute,
    }),
    viewers,
  });
  waitlistRoutes(app, {
    waitlist: createWaitlistService({ database, bus, waitlistGate: config.waitlistGate }),
    viewers,
    limiter,
    limitScale: config.authLimitScale,
  });
  adminRoutes(app, { admin: createAdminService({ database, bus }), viewers });
  fingerprintsRoutes(app, { fingerprints, songs: songsService, viewers, jobs, config, decode: audioPool.decode });
  // Issue 39: any signed-in member names a song from a clip, within hourly limits, through the same pool.
  identifyRoutes(app, {
    identify: createIdentifyService({
      fingerprints,
      songs: songsService,
      limiter,
      limits: config.identify,
      dataDir: config.dataDir,
      decode: audioPool.decode,
      reports: reportsService,
    }),
    viewers,
  });
  // Trackers as the community keeps them (issue 37): imports and syncs of linked sheets share the batches, and
  // every change they make (and uploads and edits) goes to the artist's changelog.
  changelogRoutes(app, { changelog, viewers });
  const importsRepo = createImportsRepo(database);
  const songsRepo = createSongsRepo(database);
  const imports = createImportsService({
    database,
    repo: importsRepo,
    applier: createBatchApplier({
      database,
      repo: importsRepo,
      songs: songsRepo,
      changelog,
      notifier,
      bus,
      log: app.log,
    }),
    readSheet: (source, reading, remembered) => audioPool.readSheetRows(source, reading, remembered),
    bus,
    log: app.log,
  });
  importsRoutes(app, { imports, viewers });
  const trackerSync = createTrackerSyncService({
    database,
    repo: createSyncRepo(database),
    importsRepo,
    imports,
    songs: songsRepo,
    jobs,
    fetchPolicy: sheetFetchPolicy(config),
    readSheet: (source, reading, remembered) => audioPool.readSheetRows(source, reading, remembered),
    log: app.log,
  });
  jobs.register(SYNC_JOB, async (payload) => trackerSync.run(String(payload.linkId)));
  app.decorate("trackerSync", trackerSync);
  trackerSyncRoutes(app, { sync: trackerSync, viewers });
  const publicLimits = openDataRoutes(app, {
    openData: createOpenDataService({ repo: createOpenDataRepo(database), publicUrl: config.publicUrl }),
    config,
  });
  // robots.txt and the sitemaps; the pages' titles, canonical URLs and structured data (issue 28).
  const seoRepo = createSeoRepo(database);
  seoRoutes(app, { seo: createSeoService({ repo: seoRepo, publicUrl: config.publicUrl }) });
  const heads = createPageHeads({ repo: seoRepo, publicUrl: config.publicUrl });
  const headOf = (page: PageMatch, query: URLSearchParams) => heads.headFor(page, query);
  if (deps.background) {
    jobs.start();
    app.addHook("preClose", () => jobs.stop());
    // The daily digest: checked hourly; each user is claimed atomically, so many instances may run this.
    const timer = setInterval(
      () => {
        notifier.sendDigests().catch((err) => app.log.error({ err }, "digest failed"));
      },
      60 * 60 * 1000,
    );
    timer.unref();
    // Trending counts the week's likes and plays on each song; those that age out of the week are taken off here.
    const refresh = () => {
      songsService.refreshTrending().catch((err) => app.log.error({ err }, "trending refresh failed"));
    };
    const trendingTimer = setInterval(refresh, TRENDING_REFRESH_MS);
    trendingTimer.unref();
    // Linked tracker sheets due for a sync are queued (each once, whatever the instances; decision 030).
    const syncTimer = setInterval(() => {
      trackerSync.tick().catch((err) => app.log.error({ err }, "tracker sync scheduling failed"));
    }, SYNC_TICK_MS);
    syncTimer.unref();
    app.addHook("onReady", async () => refresh());
    // Songs indexed before the invariant index existed join it in the background (decision 033); rows of re-indexed
    // or deleted songs are swept hourly.
    const invariantIndex = () => {
      const b = fingerprints.backfill;
      if (!b) return;
      Promise.all([b.start(), b.sweepSoon()]).catch((err) => app.log.error({ err }, "invariant index upkeep failed"));
    };
    app.addHook("onReady", async () => invariantIndex());
    const invariantTimer = setInterval(invariantIndex, 60 * 60 * 1000);
    invariantTimer.unref();
    // Votes of members who have become eligible start counting; contested songs past their open period settle.
    const sweep = () => {
      votesService.sweep().catch((err) => app.log.error({ err }, "vote sweep failed"));
    };
    const sweepTimer = setInterval(sweep, VOTE_SWEEP_MS);
    sweepTimer.unref();
    app.addHook("onClose", async () => {
      clearInterval(timer);
      clearInterval(trendingTimer);
      clearInterval(sweepTimer);
    });
  }
  app.get("/api/openapi.json", { schema: { hide: true } }, async () => app.swagger());

  const webDist = config.webDist ?? DEFAULT_WEB_DIST;
  const renderer =
    deps.renderer === undefined ? await loadBuiltRenderer(path.join(webDist, "..", "dist-ssr")) : deps.renderer;
  if (renderer) {
    pages = createPageRendering({
      app,
      module: renderer,
      ttlMs: PUBLIC_CACHE_TTL_MS,
      maxBytes: config.pageCacheBytes,
    });
  }
  await serveWeb(app, {
    dist: webDist,
    // The client's pages (shared with its router): a song or artist page of one that does not exist is a 404
    // (issue 25). The client renders its not-found page from the same HTML.
    pageFor: async (page, query, req) => {
      if (page.route === "song") {
        const id = page.params.id ?? "";
        const song = await songsService.visibilityOf(id);
        if (!song) return { found: false };
        if (isPublic(song)) return { found: true, head: await headOf(page, query), rendered: true };
        // Pending and hidden songs exist for some viewers only, as their API answers do (visibility.ts).
        return { found: maySee(song, await viewers.viewer(req)), perViewer: true };
      }
      if (page.route === "artist") {
        const found = await artistsService.exists(page.params.artistId ?? "");
        return { found, head: found ? await headOf(page, query) : undefined, rendered: true };
      }
      return { found: true, head: await headOf(page, query), rendered: isServerRendered(page.route) };
    },
    pages,
    limits: publicLimits,
  });
  return app;
}

/**
 * What the HTML answer to a page path says: whether the page exists (404 otherwise), its preview tags, and
 * whether that depends on who asks.
 */
type WebPage = { found: boolean; head?: PageHead | undefined; perViewer?: boolean; rendered?: boolean };

/**
 * Serve the built web app: index.html for page paths (404 for paths no page has), a JSON 404 for unknown API
 * paths and other methods. A page counts against the asker's per-address budget first (issue 38), and a
 * server-rendered page is answered at its canonical URL only (others are redirected there), so the URL alone
 * never makes a render or a cache entry.
 */
async function serveWeb(
  app: App,
  opts: {
    dist: string;
    pageFor: (page: PageMatch, query: URLSearchParams, req: FastifyRequest) => Promise<WebPage>;
    pages: PageRendering | undefined;
    limits: PublicLimits;
  },
): Promise<void> {
  const { dist, pageFor, pages, limits } = opts;
  const indexFile = path.join(dist, "index.html");
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: dist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset (scripts/build.mjs); they are sent as they are.
      preCompressed: true,
      setHeaders: (res, file) => {
        // Vite's hashed assets never change; index.html always revalidates.
        if (file.includes(`${path.sep}assets${path.sep}`))
          res.header("cache-control", "public, max-age=31536000, immutable");
      },
    });
  }
  const indexHtml = hasWeb ? readFileSync(indexFile, "utf8") : undefined;
  app.setNotFoundHandler(async (req, reply) => {
    const at = req.url.indexOf("?");
    const urlPath = at < 0 ? req.url : req.url.slice(0, at);
    if (
      indexHtml &&
      (req.method === "GET" || req.method === "HEAD") &&
      !urlPath.startsWith("/api/") &&
      urlPath !== "/api"
    ) {
      // A page is a public read: over the address's budget it costs a counter, never a look-up or a render.
      const limit = limits.page(req, reply);
      if (limit && !limit.allowed) return sendTooManyPages(reply, limit.resetSec);
      const match = matchPageRoute(urlPath);
      const query = new URLSearchParams(at < 0 ? "" : req.url.slice(at + 1));
      const canonical = match ? canonicalPage(match, query) : undefined;
      // Parameters the page does not read, or values it ignores: one permanent redirect to the page's one URL
      // (kept an hour, so a parameter a page learns to read later is not lost for long).
      if (canonical && !isCanonicalRequest(query, canonical))
        return reply.header("cache-control", "public, max-age=3600").redirect(canonical.url, 301);
      reply.type("text/html; charset=utf-8").header("cache-control", "no-cache");
      // A page rendered in the last few seconds is still right (the events that change a page clear it): sent
      // without looking the page up again.
      const shared = canonical ? pages?.peek(canonical.url) : undefined;
      if (shared) return sendRendered(req, reply, shared);
      const page: WebPage = match
        ? await pageFor(match, canonical ? new URLSearchParams(canonical.params) : query, req).catch((err): WebPage => {
            // The page itself asks the API and shows what it finds; the status is not worth a failed answer.
            req.log.warn({ err }, "page lookup failed");
            return { found: true };
          })
        : { found: false };
      if (page.perViewer) reply.header("vary", "cookie");
      const template = page.head ? injectHead(indexHtml, page.head) : indexHtml;
      if (page.found && page.rendered && pages && canonical) {
        const doc = await pages.document(canonical.url, template, req.ip).catch((err) => {
          req.log.warn({ err, url: canonical.url }, "server rendering failed; the browser renders the page");
          return undefined;
        });
        // Renders over their budget (or failed): the page as last rendered, if no change has dropped it since.
        const sent = doc ?? pages.lastKnown(canonical.url);
        if (sent) return sendRendered(req, reply, sent);
      }
      return reply.status(page.found ? 200 : 404).send(template);
    }
    return reply.status(404).send({ error: { code: "not_found", message: `No route ${req.method} ${urlPath}` } });
  });
}
