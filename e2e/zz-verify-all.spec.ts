import { MESSAGES } from "@unheard/shared";
import { as, expect, toastWith, unique } from "./support/fixtures";
import { apiAs, createMember } from "./support/members";
import { holdAllSongs, test } from "./support/pending-lock";
import { songCard, uploadSong } from "./support/songs";

// 'Verify All Songs' verifies every pending song on the shared server: this file sorts last, and the test
// waits (exclusive lock) until no other test of the suite relies on its songs staying pending.
test.describe.configure({ mode: "serial" });

test.describe("as a super admin", () => {
  test.use({ storageState: as("super") });

  test("Verify All Songs verifies every pending song at once", async ({ page }) => {
    test.setTimeout(120_000);
    const uploader = await createMember("verify-all", { approve: true });
    const titles = [`Last Call ${unique()}`, `First Light ${unique()}`];
    const songs = [];
    for (const title of titles) songs.push(await uploadSong(uploader.api, { title, artists: ["Cass Wren"] }));

    const release = await holdAllSongs();
    try {
      await page.goto("/pending");
      for (const title of titles) await expect(songCard(page, title)).toBeVisible();
      await page.getByRole("button", { name: "Verify All Songs" }).click();
      const dialog = page.getByRole("alertdialog");
      await dialog.getByRole("button", { name: "Verify All" }).click();
      await expect(toastWith(page, MESSAGES.allVerified)).toBeVisible();
      for (const title of titles) await expect(songCard(page, title)).toHaveCount(0);

      const admin = await apiAs("admin");
      for (const song of songs) {
        const res = await admin.get(`/api/songs/${song.id}`);
        expect(((await res.json()) as { status: string }).status).toBe("verified");
      }
      await admin.dispose();
    } finally {
      release();
    }
  });
});
