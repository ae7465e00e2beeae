import { healthSchema } from "@unheard/shared";
import { sql } from "kysely";
import type { Database } from "../../db/database.js";
import type { App } from "../../http.js";

/** Liveness with a real query, so a broken database shows up here. */
export function healthRoutes(app: App, deps: { database: Database }) {
  app.get("/api/health", { schema: { tags: ["health"], response: { 200: healthSchema } } }, async () => {
    await sql`select 1`.execute(deps.database.db);
    return { status: "ok" as const, db: deps.database.dialect };
  });
}
