import { defineConfig, devices } from "@playwright/test";

// Browser tests against the real server: e2e/global-setup.ts builds the web app, starts the server on a
// free port with a fresh DATA_DIR, and hands its address to the workers through process.env.
export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./e2e/global-setup.ts",
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
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        // Autoplay is allowed, so the landing player's autoplay is tested; e2e/landing.spec.ts simulates a
        // browser that blocks it.
        "--autoplay-policy=no-user-gesture-required",
      ],
    },
  },
  projects: [{ name: "chromium" }],
});
