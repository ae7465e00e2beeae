import { existsSync } from "node:fs";
import { loadConfig } from "../src/config.js";
import { migrateToLatest } from "../src/db/migrate.js";
import { openConfiguredDatabase } from "../src/db/open.js";

if (existsSync(".env")) process.loadEnvFile(".env");
const config = loadConfig();
const database = openConfiguredDatabase(config);
try {
  const applied = await migrateToLatest(database.db);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.");
} finally {
  await database.close();
}
