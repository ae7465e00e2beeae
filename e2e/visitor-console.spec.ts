import type { ConsoleMessage, Page, Response } from "@playwright/test";
import type { Song } from "@unheard/shared";
import { expect, test } from "./support/fixtures";

// Issue 38, newcomer finding 11: every visitor page logged a console error, a 401 from GET /api/me: the app asked
// "who am I" in a way whose answer for a visitor was an error. It asks GET /api/session, which answers a visitor
// with { user: null }. No visitor page may log an error, nor get an error answer from the API.

/** Console errors and error answers from the API while `page` is open, as lines for the failure message. */
function watch(page: Page): string[] {
  const found: string[] = [];
  page.on("console", (msg: ConsoleMessage) => {
    if (msg.type() === "error") found.push(`console: ${msg.text()} (${page.url()})`);
  });
  page.on("response", (res: Response) => {
    if (res.url().includes("/api/") && res.status() >= 400) found.push(`${res.status()} ${res.url()}`);
  });
  return found;
}

test("a visitor's pages log no console error and get no error answer from the API", async ({ page, request }) => {
  test.setTimeout(90_000);
  const found = await request.get("/api/search?q=Midnight%20Circuit");
  const song = ((await found.json()) as { songs: Song[] }).songs.find((s) => s.title === "Midnight Circuit");
  if (!song?.artists[0]) throw new Error("the demo song Midnight Circuit is missing");
  const errors = watch(page);
  const asked: string[] = [];
  page.on("request", (req) => {
    const path = new URL(req.url()).pathname;
    if (path === "/api/me" || path === "/api/session") asked.push(path);
  });
  const pages = [
    "/",
    "/?q=nova",
    `/song/${song.id}`,
    `/artists/${song.artists[0].id}`,
    `/artists/${song.artists[0].id}?view=table`,
    "/about",
    "/landing",
    "/changes",
    "/developers",
    "/login",
    "/register",
    "/waitlist",
    "/profile",
  ];
  for (const path of pages) {
    await page.goto(path);
    await expect(page.locator("h1").first()).toBeVisible();
    // What loads after the first paint (the session, the live stream, deferred parts) has its chance to fail.
    await page.waitForTimeout(750);
  }
  expect(errors).toEqual([]);
  // The app did ask who the visitor is, the way that answers a visitor without an error.
  expect(asked).toContain("/api/session");
  expect(asked).not.toContain("/api/me");
});
