import { existsSync } from "node:fs";
import { loadConfig } from "../src/config.js";
import { migrateToLatest } from "../src/db/migrate.js";
import { openConfiguredDatabase } from "../src/db/open.js";
import { seedDemo } from "../src/seed/seed.js";

if (existsSync(".env")) process.loadEnvFile(".env");
const config = loadConfig();
const database = openConfiguredDatabase(config);
try {
  await migrateToLatest(database.db);
  const result = await seedDemo({ database, config, log: console });
  console.log(result?.summary);
} finally {
  await database.close();
}
