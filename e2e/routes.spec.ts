import { as, expect, test } from "./support/fixtures";
import { SHELL_ROUTES, VISITOR_ROUTES } from "./support/routes";

const widths = [
  { name: "desktop", viewport: { width: 1440, height: 900 } },
  { name: "mobile", viewport: { width: 375, height: 812 } },
] as const;

for (const { name, viewport } of widths) {
  test.describe(`every route resolves on ${name}`, () => {
    test.use({ viewport });

    test("signed in as a super admin, every shell route shows its page", async ({ browser }) => {
      const context = await browser.newContext({ storageState: as("super"), viewport });
      const page = await context.newPage();
      for (const route of SHELL_ROUTES) {
        await page.goto(route.path);
        await expect(page.getByRole("heading", { level: 1, name: route.heading }), route.path).toBeVisible();
        await expect(page.getByText("Page not found")).toHaveCount(0);
      }
      await context.close();
    });

    test("as a visitor, the public pages and /landing show", async ({ page }) => {
      for (const route of [...VISITOR_ROUTES, ...SHELL_ROUTES.filter((r) => !needsLogin(r.path))]) {
        await page.goto(route.path);
        const heading = route.path === "/profile" ? "Please log in to view your profile" : route.heading;
        await expect(page.getByRole("heading", { level: 1, name: heading }), route.path).toBeVisible();
      }
      await page.goto("/landing");
      await expect(page.getByRole("heading", { level: 1, name: /Hear it before everyone else/ })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Bottom navigation" })).toHaveCount(0);
    });

    test("an unknown path shows the 404 page inside the shell", async ({ page }) => {
      // The server says so too (issue 25), with the same page for the client to render.
      expect((await page.goto("/no/such/page"))?.status()).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
      await expect(page).toHaveTitle("Page not found · Unheard");
      await page.getByRole("main").getByRole("link", { name: "Go Home" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Trending This Week" })).toBeVisible();
    });
  });
}

function needsLogin(path: string): boolean {
  return /^\/(favorites|pending|upload|songs\/|reports|edit-suggestions|admin\/|song-recognition|audio-quality-test)/.test(
    path,
  );
}
