import type { Page } from "@playwright/test";
import { storageStatePath } from "./support/env";
import { expect, test } from "./support/fixtures";
import { approvedMembers, memberPage } from "./support/members";
import { uploadSong } from "./support/songs";

/** The figure under a stat's label on the profile (Points, Uploads). */
const stat = (page: Page, label: string) =>
  page.getByRole("main").getByText(label, { exact: true }).locator("xpath=following-sibling::p[1]");

// Issue 25: "Uploads" counted the songs credited to the account as an artist, so members saw 0 whatever they uploaded.
test.describe("the profile's Uploads", () => {
  test.describe("as the demo listener", () => {
    test.use({ storageState: storageStatePath("listener") });

    test("shows the songs the listener uploaded", async ({ page }) => {
      const me = (await (await page.request.get("/api/me")).json()) as { uploadCount: number };
      expect(me.uploadCount).toBeGreaterThan(0);
      await page.goto("/profile");
      await expect(stat(page, "Uploads")).toHaveText(me.uploadCount.toLocaleString("en-US"));
    });
  });

  test("follows a member's new upload on the open page", async ({ browser }) => {
    const [member] = await approvedMembers("uploads");
    const { context, page } = await memberPage(browser, member);
    try {
      const streamOpen = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/events");
      await page.goto("/profile");
      await expect(stat(page, "Uploads")).toHaveText("0");
      await streamOpen;
      // Uploaded elsewhere (another tab, here the API): the server's 'me' event brings the new count.
      await uploadSong(member.api, { title: `Profile Upload ${Date.now().toString(36)}`, artists: ["Someone Else"] });
      await expect(stat(page, "Uploads")).toHaveText("1");
    } finally {
      await context.close();
      await member.api.dispose();
    }
  });
});
