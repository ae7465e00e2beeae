import { MESSAGES, SEARCH_DEBOUNCE_MS } from "@unheard/shared";
import { as, bottomBar, expect, test, toastWith } from "./support/fixtures";

const mobile = { width: 375, height: 812 };

test.describe("desktop (1440 px)", () => {
  test("side menu visible, bottom bar hidden, brand in the menu", async ({ page }) => {
    await page.goto("/");
    const aside = page.getByRole("complementary");
    await expect(aside).toBeVisible();
    await expect(aside.getByRole("link", { name: "Unheard" })).toBeVisible();
    await expect(bottomBar(page)).toBeHidden();
  });

  test("the search box writes a shareable /?q= link after the debounce", async ({ page }) => {
    await page.goto("/about");
    const search = page.getByPlaceholder("Search songs...");
    await search.fill("midnight drive");
    await expect(page).toHaveURL(/\/\?q=midnight%20drive$/, { timeout: SEARCH_DEBOUNCE_MS + 3_000 });
    await expect(page.getByRole("heading", { name: "Search Results" })).toBeVisible();
    await expect(page).toHaveTitle("Search: midnight drive · Unheard");

    // Opening the link fresh shows the same search.
    await page.goto("/?q=neon");
    await expect(page.getByPlaceholder("Search songs...")).toHaveValue("neon");
    await expect(page.getByRole("heading", { name: "Search Results" })).toBeVisible();

    await page.getByRole("button", { name: "Clear search" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "Trending This Week" })).toBeVisible();
  });
});

test.describe("mobile (375 px)", () => {
  test.use({ viewport: mobile, hasTouch: true, isMobile: true });

  test("as a visitor: top bar search and bottom bar, side menu hidden", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("complementary")).toBeHidden();
    await expect(page.getByPlaceholder("Search songs...")).toBeVisible();
    const bar = bottomBar(page);
    await expect(bar).toBeVisible();
    for (const name of ["Home", "About", "Login", "Register"]) {
      await expect(bar.getByRole("link", { name })).toBeVisible();
    }
  });

  test.describe("signed in", () => {
    test.use({ storageState: as("listener") });

    test("bottom bar has Home, Favorites, Pending, Upload, Profile; the menu sheet has the rest", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByRole("complementary")).toBeHidden();
      const bar = bottomBar(page);
      await expect(bar).toBeVisible();
      await expect(bar.getByRole("link")).toHaveText(["Home", "Favorites", "Pending", "Upload", "Profile"]);
      await bar.getByRole("link", { name: "Upload" }).click();
      await expect(page.getByRole("heading", { name: "Upload Song" })).toBeVisible();

      await page.getByRole("button", { name: "Open menu" }).click();
      const sheet = page.getByRole("dialog", { name: "Menu" });
      await expect(sheet).toBeVisible();
      await expect(sheet.getByRole("button", { name: "Sign Out" })).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(sheet).toBeHidden();

      await page.getByRole("button", { name: "Open menu" }).click();
      await sheet.getByRole("link", { name: "About" }).click();
      await expect(sheet).toBeHidden();
      await expect(page.getByRole("heading", { name: "About Unheard" })).toBeVisible();
    });
  });
});

test.describe("offline", () => {
  test.use({ storageState: as("listener") });

  test("a banner shows while offline, actions say they failed, and it clears when back", async ({ page, context }) => {
    await page.goto("/profile");
    await page.getByRole("button", { name: "Edit Profile" }).click();
    await context.setOffline(true);
    const banner = page.getByRole("status").filter({ hasText: "You are offline" });
    await expect(banner).toBeVisible();
    await page.getByLabel("Username").fill("offline-name");
    await page.getByRole("button", { name: "Save Changes" }).click();
    await expect(toastWith(page, MESSAGES.profileUpdateFailed)).toBeVisible();
    await context.setOffline(false);
    await expect(banner).toBeHidden();
  });
});

test.describe("profile load failure", () => {
  test.use({ storageState: as("listener") });

  test("a server error loading /api/session toasts and falls back to the default profile", async ({ page }) => {
    // A first normal visit lets the browser remember who is signed in.
    await page.goto("/profile");
    await expect(page.getByRole("main").getByRole("button", { name: "Edit Profile" })).toBeVisible();
    await page.route("**/api/session", (route) =>
      route.fulfill({ status: 500, json: { error: { code: "internal", message: "Something went wrong." } } }),
    );
    await page.reload();
    await expect(toastWith(page, MESSAGES.profileLoadFailed)).toBeVisible();
    // Spec §4 defaults: username from the e-mail, role User, no admin links.
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: "listener" })).toBeVisible();
    await expect(main.getByText("User", { exact: true })).toBeVisible();
    await expect(page.getByRole("complementary").getByText("Admin Controls")).toHaveCount(0);
  });
});
