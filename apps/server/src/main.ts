import { existsSync } from "node:fs";
import { buildApp } from "./app.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { migrateToLatest } from "./db/migrate.js";
import { openConfiguredDatabase } from "./db/open.js";
import { seedDemo } from "./seed/seed.js";

/** Read config, open and migrate the database, listen; close cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  // A .env file in the working directory is read if present; real environment variables win.
  if (existsSync(".env")) process.loadEnvFile(".env");
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`unheard: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const database = openConfiguredDatabase(config);
  const applied = await migrateToLatest(database.db);
  const app = await buildApp({
    config,
    database,
    background: true,
    logger:
      process.stdout.isTTY && config.env !== "production"
        ? { level: config.logLevel, transport: { target: "pino-pretty", options: { ignore: "pid,hostname" } } }
        : { level: config.logLevel },
  });
  if (applied.length > 0) app.log.info({ applied }, "migrations applied");
  if (config.seedDemo) {
    const seeded = await seedDemo({ database, config, log: app.log, onlyIfEmpty: true });
    if (seeded) app.log.info(seeded.summary);
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    const timer = setTimeout(() => {
      app.log.error("shutdown timed out; exiting");
      process.exit(1);
    }, 10_000);
    timer.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, "error during shutdown");
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  // performance.now() counts from the start of this process.
  const startup = (performance.now() / 1000).toFixed(2);
  app.log.info(`Unheard is running at ${config.publicUrl} (database: ${database.dialect}, ready in ${startup} s)`);
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
