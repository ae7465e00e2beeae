import { MESSAGES } from "@unheard/shared";
import { as, expect, loginAs, sideMenu, test, toastWith } from "./support/fixtures";

test.describe("as a visitor", () => {
  test("a guarded page sends you to login and back there afterwards", async ({ page }) => {
    await page.goto("/favorites?sort=new");
    await expect(page).toHaveURL(/\/login\?next=%2Ffavorites%3Fsort%3Dnew$/);
    await page.getByLabel("Email").fill("listener@unheard.local");
    await page.getByLabel("Password", { exact: true }).fill("listener123");
    await page.getByRole("button", { name: "Log In" }).click();
    await expect(toastWith(page, MESSAGES.loginSuccess)).toBeVisible();
    await expect(page).toHaveURL(/\/favorites\?sort=new$/);
    await expect(page.getByRole("heading", { name: "Your Favorites" })).toBeVisible();
  });

  test("an unsafe return path falls back to home", async ({ page }) => {
    await loginAs(page, "listener", "//evil.com/steal");
    await expect(toastWith(page, MESSAGES.loginSuccess)).toBeVisible();
    await expect(page).toHaveURL(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    await expect(page.getByRole("heading", { name: "Trending This Week" })).toBeVisible();
  });

  test("every signed-in route redirects to login with its return path", async ({ page }) => {
    for (const path of [
      "/pending",
      "/upload",
      "/songs/abc/edit",
      "/songs/abc/suggest-edit",
      "/reports",
      "/edit-suggestions",
      "/admin/waitlist",
      "/song-recognition",
      "/audio-quality-test",
    ]) {
      await page.goto(path);
      await expect(page).toHaveURL(new RegExp(`/login\\?next=${encodeURIComponent(path)}$`));
    }
  });

  test("/profile asks you to log in instead of redirecting", async ({ page }) => {
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { name: MESSAGES.loginToViewProfile })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "Log In" }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fprofile$/);
  });

  test("the side menu shows the visitor links", async ({ page }) => {
    await page.goto("/about");
    const menu = sideMenu(page);
    for (const name of ["Home", "About", "Login", "Register", "Join Waitlist"]) {
      await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(menu.getByRole("link", { name: "Favorites" })).toHaveCount(0);
    // Issue 38: "Join Waitlist" leads to the join form itself (it led to the landing page, whose player played).
    await menu.getByRole("link", { name: "Join Waitlist" }).click();
    await expect(page).toHaveURL(/\/waitlist$/);
    const form = page.getByRole("main").getByRole("form", { name: "Join the waitlist" });
    await expect(form.getByLabel("Name")).toBeVisible();
    await expect(form.getByLabel("Email")).toBeVisible();
    expect(await page.evaluate(() => Array.from(document.querySelectorAll("audio")).some((a) => !a.paused))).toBe(
      false,
    );
  });
});

test.describe("as a signed-in user", () => {
  test.use({ storageState: as("listener") });

  test("admin and super-admin screens say access is for admins only", async ({ page }) => {
    for (const path of ["/reports", "/edit-suggestions", "/admin/waitlist"]) {
      await page.goto(path);
      await expect(page.getByRole("alert").filter({ hasText: MESSAGES.adminOnly })).toBeVisible();
    }
    for (const path of ["/song-recognition", "/audio-quality-test"]) {
      await page.goto(path);
      await expect(page.getByRole("alert").filter({ hasText: MESSAGES.superAdminOnly })).toBeVisible();
    }
  });

  test("the side menu shows the signed-in links and no Admin Controls", async ({ page }) => {
    await page.goto("/");
    const menu = sideMenu(page);
    for (const name of ["Home", "Favorites", "Pending Songs", "Upload Music", "Profile", "About"]) {
      await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(page.getByRole("complementary").getByRole("button", { name: "Sign Out" })).toBeVisible();
    await expect(menu.getByText("Admin Controls")).toHaveCount(0);
    await expect(menu.getByRole("link", { name: "Login" })).toHaveCount(0);
  });

  test("the login page sends a signed-in user on", async ({ page }) => {
    await page.goto("/login?next=/upload");
    await expect(page).toHaveURL(/\/upload$/);
    await expect(page.getByRole("heading", { name: "Upload Song" })).toBeVisible();
  });
});

test.describe("as an admin", () => {
  test.use({ storageState: as("admin") });

  test("sees the admin screens and the Admin Controls links, but not the super-admin tools", async ({ page }) => {
    await page.goto("/reports");
    await expect(page.getByRole("heading", { name: "Reports" })).toBeVisible();
    await expect(page).toHaveTitle("Reports · Unheard");
    const menu = sideMenu(page);
    await expect(menu.getByText("Admin Controls")).toBeVisible();
    for (const name of ["Reports", "Edit Suggestions", "Waitlist"]) {
      await expect(menu.getByRole("link", { name, exact: true })).toBeVisible();
    }
    await expect(menu.getByRole("link", { name: "Song Recognition" })).toHaveCount(0);
    await menu.getByRole("link", { name: "Edit Suggestions" }).click();
    await expect(page.getByRole("heading", { name: "Edit Suggestions" })).toBeVisible();
    await page.goto("/song-recognition");
    await expect(page.getByRole("alert").filter({ hasText: MESSAGES.superAdminOnly })).toBeVisible();
  });
});

test.describe("as a super admin", () => {
  test.use({ storageState: as("super") });

  test("sees the fingerprint tools", async ({ page }) => {
    await page.goto("/");
    const menu = sideMenu(page);
    await menu.getByRole("link", { name: "Song Recognition" }).click();
    await expect(page.getByRole("heading", { name: "Song Recognition" })).toBeVisible();
    await menu.getByRole("link", { name: "Audio Quality Test" }).click();
    await expect(page.getByRole("heading", { name: "Audio Quality Test" })).toBeVisible();
  });
});
