// Debian's Chromium as the browser tests and bench:web launch it. No imports: bench/lib/web-lighthouse.ts uses it too.

/** The Chromium binary: CHROMIUM_PATH, else Debian's /usr/bin/chromium (nothing downloads a browser). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags for a headless Chromium in a container: no sandbox, no GPU, no background traffic or updates. */
export const HEADLESS_CHROMIUM_FLAGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * The browser tests' flags: headless, and autoplay allowed, so a test shows that the landing player does not start
 * by itself even where it could (e2e/landing.spec.ts also simulates a browser that refuses play()).
 */
export const E2E_CHROMIUM_FLAGS: readonly string[] = [
  ...HEADLESS_CHROMIUM_FLAGS,
  "--autoplay-policy=no-user-gesture-required",
];
