import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

const dialects = (process.env.TEST_DIALECTS ?? "sqlite").split(",").map((d) => d.trim());

/**
 * Server test files that never run per dialect (no `DIALECTS` or `describeEachDialect`): parsers, caches, the
 * process's start and stop. A run without SQLite (`npm run test:pg`) leaves them out: the SQLite run has already
 * run them, and on PostgreSQL they would test the same code again.
 */
function dialectFreeServerTests(): string[] {
  const root = "apps/server/src";
  const files = readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".test.ts") && !f.endsWith(".pg.test.ts"))
    .map((f) => path.join(root, f));
  return files.filter((f) => !/\bDIALECTS\b|\bdescribeEachDialect\b/.test(readFileSync(f, "utf8")));
}

// Unit tests of the pure packages, and the API suite that runs against a real database per dialect.
export default defineConfig({
  test: {
    // Each API test file gets its own database; two workers suit the 2-core machines.
    maxWorkers: 2,
    projects: [
      { test: { name: "unit", include: ["packages/*/src/**/*.test.ts", "apps/web/src/**/*.test.ts"] } },
      {
        test: {
          name: "api",
          include: ["apps/server/src/**/*.test.ts"],
          exclude: [
            ...configDefaults.exclude,
            "**/*.pg.test.ts",
            ...(dialects.includes("sqlite") ? [] : dialectFreeServerTests()),
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // PostgreSQL-only suites (real server processes sharing one database): defined only inside `npm run test:pg`,
      // so the SQLite `vitest run` has no such project instead of skipping it.
      ...(dialects.includes("postgres")
        ? [
            {
              test: {
                name: "instances",
                include: ["apps/server/src/**/*.pg.test.ts"],
                testTimeout: 60_000,
                hookTimeout: 60_000,
              },
            },
          ]
        : []),
    ],
  },
});
