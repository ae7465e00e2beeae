import path from "node:path";
import type { Config } from "../config.js";
import { type Database, openDatabase } from "./database.js";

/** Open the configured database: SQLite at $DATA_DIR/unheard.db unless DATABASE_URL is set. */
export function openConfiguredDatabase(config: Config): Database {
  return openDatabase({
    url: config.databaseUrl,
    file: path.join(config.dataDir, "unheard.db"),
    synchronous: config.sqliteSynchronous,
  });
}
