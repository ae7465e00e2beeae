import { configDefaults, defineConfig } from "vitest/config";

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
          exclude: [...configDefaults.exclude, "**/*.pg.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // PostgreSQL-only suites (real server processes sharing one database): defined only inside `npm run test:pg`,
      // so the SQLite `vitest run` has no such project instead of skipping it.
      ...(process.env.TEST_DIALECTS?.split(",").includes("postgres")
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
