import { healthSchema } from "@unheard/shared";
import { sql } from "kysely";
import { z } from "zod";
import type { Config } from "../../config.js";
import type { Database } from "../../db/database.js";
import type { App } from "../../http.js";
import { routeOptions } from "../../lib/route-schemas.js";
import { demoAudioStatus } from "../../seed/demo-audio-status.js";

const options = routeOptions(["health"]);

/**
 * Liveness with a real query, so a broken database shows up here, and how far demo audio rendering has come (from
 * memory: pages poll it while songs wait for their audio); and the limits the page checks before sending.
 */
export function healthRoutes(app: App, deps: { database: Database; config: Config }) {
  app.get(
    "/api/config",
    options(z.object({ maxUploadMb: z.number(), soundcloudEnabled: z.boolean(), waitlistGate: z.boolean() })),
    async () => ({
      maxUploadMb: deps.config.maxUploadMb,
      soundcloudEnabled: Boolean(deps.config.soundcloudClientId),
      waitlistGate: deps.config.waitlistGate,
    }),
  );

  app.get("/api/health", options(healthSchema), async () => {
    await sql`select 1`.execute(deps.database.db);
    return { status: "ok" as const, db: deps.database.dialect, demoAudio: demoAudioStatus(deps.database) };
  });
}
