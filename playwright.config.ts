import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_PATH, E2E_CHROMIUM_FLAGS } from "./e2e/support/chromium";

// Browser tests against the real server: e2e/support/global-setup.ts builds the web app, starts the server on a
// free port with a fresh DATA_DIR, and hands its address to the workers through process.env.
export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/support/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  outputDir: "test-results",
  use: {
    ...devices["Desktop Chrome"],
    viewport: { width: 1440, height: 900 },
    screenshot: "only-on-failure",
    trace: "off",
    // Headless, autoplay allowed (e2e/support/chromium.ts).
    launchOptions: { executablePath: CHROMIUM_PATH, args: [...E2E_CHROMIUM_FLAGS] },
  },
  projects: [{ name: "chromium" }],
});
