import { healthSchema } from "@unheard/shared";
import { sql } from "kysely";
import { z } from "zod";
import type { Config } from "../../config.js";
import type { Database } from "../../db/database.js";
import type { App } from "../../http.js";

/** Liveness with a real query, so a broken database shows up here; and the limits the page checks before sending. */
export function healthRoutes(app: App, deps: { database: Database; config: Config }) {
  app.get(
    "/api/config",
    {
      schema: {
        tags: ["health"],
        response: {
          200: z.object({ maxUploadMb: z.number(), soundcloudEnabled: z.boolean(), waitlistGate: z.boolean() }),
        },
      },
    },
    async () => ({
      maxUploadMb: deps.config.maxUploadMb,
      soundcloudEnabled: Boolean(deps.config.soundcloudClientId),
      waitlistGate: deps.config.waitlistGate,
    }),
  );

  app.get("/api/health", { schema: { tags: ["health"], response: { 200: healthSchema } } }, async () => {
    await sql`select 1`.execute(deps.database.db);
    return { status: "ok" as const, db: deps.database.dialect };
  });
}
