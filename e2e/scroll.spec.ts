import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";

// Issue 25: the scroll position of one page was restored onto a newly typed address in the same tab. Each
// history entry keeps its own position: a new address starts at the top, going back restores where one was.

const sizes = [
  { name: "desktop", viewport: { width: 1440, height: 900 } },
  { name: "phone", viewport: { width: 375, height: 667 } },
] as const;

/** Scroll the window to `y` and wait until it is there (and the page is tall enough to be there). */
async function scrollTo(page: Page, y: number): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate((to) => {
          window.scrollTo(0, to);
          return window.scrollY;
        }, y),
      { timeout: 10_000 },
    )
    .toBe(y);
}

const scrollY = (page: Page) => page.evaluate(() => window.scrollY);

for (const { name, viewport } of sizes) {
  test.describe(name, () => {
    test.use({ viewport });

    test("a newly typed address starts at the top; back within the app restores the position", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByRole("heading", { level: 1, name: "Trending This Week" })).toBeVisible();
      await scrollTo(page, 500);

      // Typed into the same tab: a new document whose first entry must not take the old page's position.
      await page.goto("/developers");
      await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible();
      // Restoring runs once the page has rendered; give it the chance to (wrongly) happen before checking.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      expect(await scrollY(page)).toBe(0);

      // Within the app: a new page starts at the top, back returns to where the reader was.
      await scrollTo(page, 400);
      // The menu's About link (the side menu on desktop, the bottom bar on a phone).
      await page.locator('a[href="/about"]:visible').first().click();
      await expect(page.getByRole("heading", { level: 1, name: "About Unheard" })).toBeVisible();
      await expect.poll(() => scrollY(page)).toBe(0);
      await page.goBack();
      await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible();
      await expect.poll(() => scrollY(page)).toBe(400);
      // The entry keeps its key across a reload, and with it its position.
      await page.reload();
      await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible();
      await expect.poll(() => scrollY(page)).toBe(400);
    });
  });
}
