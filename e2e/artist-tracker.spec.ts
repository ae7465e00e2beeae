import type { Locator, Page } from "@playwright/test";
import { MESSAGES } from "@unheard/shared";
import { as, expect, test, toastWith, unique } from "./support/fixtures";
import { songCard } from "./support/songs";

// Issue 27 part 3: the artist page as a tracker. A one-artist sheet in the community layout is imported, and its
// artist page shows the eras newest first with what is out of each, a table sorted and filtered through the
// address, and a readable list on a phone.

/** A community-layout sheet for one artist (the import's "Default artist"), a song with no era and two eras. */
function sheet(tag: string): string {
  return `${[
    "Era,Name,Notes,Track Length,File Date,Leak Date,Available Length,Quality",
    // Above every era: a song of none (a blank Era cell under an era continues it, issue 37).
    `,Loose End ${tag},,2:20,,2018-05-01,Full,`,
    `Harbor Lights,⭐ Tidewater ${tag},"Played at the Harbor show, then leaked with the stems.",3:41,2019-06-02,2019-09-30,OG File,Lossless`,
    `Harbor Lights,Undertow ${tag} [V2],,4:05,,2019-11-02,Full,CD Quality`,
    `Harbor Lights,Lantern Song ${tag},,3:12,,2020-01-15,Snippet,Low Quality`,
    `Salt Years,Glass Coast ${tag},Only a minute of it,1:02,,2021-03-14,Snippet,Recording`,
    `Salt Years,⭐ Paper Moons ${tag},,2:50,,2022-07-04,OG File,High Quality`,
    `Salt Years,Ghost Pier ${tag},,,,,,`,
  ].join("\r\n")}\r\n`;
}

/** The titles of the table's rows, in order. */
const rowTitles = (table: Locator) => table.locator("tbody tr").getByRole("link");

/**
 * A screenshot of the window with `top` (by default the tracker's heading) just under the top bar; a full-page
 * screenshot would repeat the fixed bars down the page.
 */
async function shot(page: Page, name: string, top?: Locator) {
  await (top ?? page.getByRole("heading", { level: 2, name: "Tracker", exact: true })).evaluate((el) => {
    el.scrollIntoView({ block: "start" });
    window.scrollBy(0, -80);
  });
  await page.screenshot({ path: `test-results/${name}.png` });
}

/** True when nothing on the page is wider than the window (no sideways scrolling). */
const fitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

test.describe("artist tracker", () => {
  test.use({ storageState: as("super") });

  test("an imported sheet shows as eras and as a sortable, filterable table; a phone gets a list", async ({
    page,
    browser,
  }) => {
    test.slow();
    const tag = unique();
    const artist = `Mara Quill ${tag}`;
    const fileName = `artist-tracker-${tag}.csv`;
    const t = (title: string) => `${title} ${tag}`;

    try {
      await test.step("import the sheet as verified", async () => {
        await page.goto("/admin/import");
        await page.getByLabel("Default artist").fill(artist);
        await page.getByLabel("Tracker file (CSV or TSV)").setInputFiles({
          name: fileName,
          mimeType: "text/csv",
          buffer: Buffer.from(sheet(tag)),
        });
        await page.getByLabel(/Import as verified/).check();
        await page.getByRole("button", { name: /^Import 7 new/ }).click();
        await expect(page.getByText("Import finished: 7 created, 0 updated, 0 skipped.")).toBeVisible();
      });

      await test.step("open the artist page from a song", async () => {
        await page.getByRole("link", { name: t("Paper Moons"), exact: true }).click();
        await expect(page.getByRole("heading", { level: 1, name: t("Paper Moons") })).toBeVisible();
        await page.getByRole("main").getByRole("link", { name: artist, exact: true }).first().click();
        await expect(page.getByRole("heading", { level: 1, name: artist })).toBeVisible();
      });

      const tracker = page.getByRole("region", { name: "Tracker", exact: true });
      await test.step("the eras, newest first, each with its span and what is out of it", async () => {
        await expect(tracker.getByText("7 songs", { exact: true })).toBeVisible();
        await expect(tracker.getByText("2 OG files · 2 full · 2 snippets · 1 unknown", { exact: true })).toBeVisible();
        await expect(tracker.getByRole("list", { name: "Legend" })).toContainText("Best of");
        await expect(tracker.getByRole("link", { name: "Download tracker (CSV)" })).toHaveAttribute(
          "href",
          /\/api\/artists\/[^/]+\/tracker\.csv$/,
        );
        await expect(tracker.getByRole("button", { name: "Eras", exact: true })).toHaveAttribute(
          "aria-pressed",
          "true",
        );
        await expect(tracker.getByRole("heading", { level: 3 })).toHaveText(["Salt Years", "Harbor Lights", "No era"]);

        const salt = tracker.getByRole("region", { name: "Salt Years" });
        await expect(salt.getByText("Mar 2021 – Jul 2022")).toBeVisible();
        await expect(salt.getByText("1 OG file · 1 snippet · 1 unknown", { exact: true })).toBeVisible();
        await expect(salt.getByRole("listitem")).toHaveCount(3);
        const moons = salt.getByRole("listitem").filter({ hasText: t("Paper Moons") });
        await expect(moons.getByRole("img", { name: "Best of" })).toBeVisible();
        await expect(moons).toContainText("OG file");
        await expect(moons).toContainText("High quality");
        await expect(moons).toContainText("Jul 4, 2022");
        await expect(moons).toContainText("2:50");

        const harbor = tracker.getByRole("region", { name: "Harbor Lights" });
        await expect(harbor.getByText("Sep 2019 – Jan 2020")).toBeVisible();
        await expect(harbor.getByText("1 OG file · 1 full · 1 snippet", { exact: true })).toBeVisible();
        await expect(harbor.getByRole("listitem").filter({ hasText: t("Undertow") })).toContainText("V2");
        await expect(tracker.getByRole("region", { name: "No era" }).getByText("May 2018")).toBeVisible();
        await shot(page, "artist-tracker-1440-eras");
      });

      await test.step("an era is described in a dialog: a bad date is refused before anything is sent", async () => {
        const harbor = tracker.getByRole("region", { name: "Harbor Lights" });
        // Only named eras can be described.
        await expect(tracker.getByRole("region", { name: "No era" }).getByRole("button")).toHaveCount(0);
        const edit = harbor.getByRole("button", { name: "Edit era Harbor Lights", exact: true });
        const saves: string[] = [];
        page.on("request", (r) => {
          if (r.method() === "PUT" && r.url().endsWith("/eras")) saves.push(r.postData() ?? "");
        });

        // Escape closes it and gives the focus back to its button.
        await edit.click();
        const dialog = page.getByRole("dialog", { name: "Edit era “Harbor Lights”" });
        await expect(dialog).toBeVisible();
        // The focus is kept inside while it is open.
        await expect(dialog.locator(":focus")).toHaveCount(1);
        await page.keyboard.press("Escape");
        await expect(dialog).toBeHidden();
        await expect(edit).toBeFocused();

        await edit.click();
        // Prefilled with what the era's page says: nothing yet (the heading's span is its leaks', not saved).
        await expect(dialog.getByLabel("Description")).toHaveValue("");
        await expect(dialog.getByLabel("Cover image link")).toHaveValue("");
        const starts = dialog.getByLabel("Starts");
        const ends = dialog.getByLabel("Ends");
        await expect(starts).toHaveValue("");
        await expect(ends).toHaveValue("");
        await expect(starts).toHaveAccessibleDescription("YYYY-MM or YYYY-MM-DD");
        await page.screenshot({ path: "test-results/artist-tracker-era-dialog-1440.png" });

        await starts.fill("March 2019");
        await dialog.getByRole("button", { name: "Save era" }).click();
        await expect(starts).toHaveAccessibleDescription(MESSAGES.invalidEraDate);
        await expect(starts).toHaveAttribute("aria-invalid", "true");
        await expect(starts).toBeFocused();
        // Only the bad date is flagged, not the order of a date that is not one.
        await expect(ends).not.toHaveAttribute("aria-invalid", "true");
        await expect(ends).toHaveAccessibleDescription("YYYY-MM or YYYY-MM-DD");
        await expect(dialog).toBeVisible();
        await page.screenshot({ path: "test-results/artist-tracker-era-dialog-1440-error.png" });
        await page.setViewportSize({ width: 375, height: 812 });
        await expect(dialog.getByRole("button", { name: "Save era" })).toBeInViewport();
        await page.screenshot({ path: "test-results/artist-tracker-era-dialog-375.png" });
        await page.setViewportSize({ width: 1440, height: 900 });
        await starts.fill("2021-01");
        await ends.fill("2020-11");
        await dialog.getByRole("button", { name: "Save era" }).click();
        await expect(ends).toHaveAccessibleDescription(MESSAGES.eraDatesOrder);
        await expect(starts).not.toHaveAttribute("aria-invalid", "true");
        await expect(ends).toBeFocused();
        // Cancel: nothing was sent, and the heading is as it was.
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await expect(dialog).toBeHidden();
        await expect(edit).toBeFocused();
        expect(saves).toEqual([]);
        await expect(harbor.getByText("Sep 2019 – Jan 2020", { exact: true })).toBeVisible();
      });

      await test.step("a description and dates save and show in the era's heading", async () => {
        const harbor = tracker.getByRole("region", { name: "Harbor Lights" });
        const dialog = page.getByRole("dialog", { name: "Edit era “Harbor Lights”" });
        await harbor.getByRole("button", { name: "Edit era Harbor Lights", exact: true }).click();
        // A new opening starts from the era again, without the last attempt's messages.
        await expect(dialog.getByLabel("Starts")).toHaveValue("");
        await expect(dialog.getByLabel("Ends")).toHaveAccessibleDescription("YYYY-MM or YYYY-MM-DD");
        const description = dialog.getByLabel("Description");
        await description.fill("The first album cycle.");
        await dialog.getByLabel("Starts").fill("2019-03");
        await dialog.getByLabel("Ends").fill("2020-11");
        await expect(description).toHaveValue("The first album cycle.");
        const put = page.waitForRequest((r) => r.method() === "PUT" && r.url().endsWith("/eras"));
        await dialog.getByRole("button", { name: "Save era" }).click();
        expect((await put).postDataJSON()).toEqual({
          name: "Harbor Lights",
          description: "The first album cycle.",
          coverUrl: null,
          startsOn: "2019-03",
          endsOn: "2020-11",
        });
        await expect(toastWith(page, MESSAGES.eraSaved)).toBeVisible();
        await expect(dialog).toBeHidden();
        await expect(harbor.getByRole("button", { name: "Edit era Harbor Lights", exact: true })).toBeFocused();
        await expect(harbor.getByText("The first album cycle.", { exact: true })).toBeVisible();
        await expect(harbor.getByText("Mar 2019 – Nov 2020", { exact: true })).toBeVisible();
        await shot(page, "artist-tracker-era-saved-1440", harbor);

        // A visitor sees the era as described, and no way to edit it.
        const visitor = await browser.newContext({ storageState: { cookies: [], origins: [] } });
        try {
          const other = await visitor.newPage();
          await other.goto(page.url());
          const theirs = other.getByRole("region", { name: "Harbor Lights" });
          await expect(theirs.getByText("The first album cycle.", { exact: true })).toBeVisible();
          await expect(theirs.getByText("Mar 2019 – Nov 2020", { exact: true })).toBeVisible();
          await expect(other.getByRole("button", { name: /^Edit era/ })).toHaveCount(0);
        } finally {
          await visitor.close();
        }
      });

      const table = tracker.getByRole("table");
      await test.step("the table, sorted by leak date with the keyboard, then filtered to OG files", async () => {
        await tracker.getByRole("button", { name: "Table", exact: true }).click();
        await expect(page).toHaveURL(/view=table/);
        await expect(tracker.getByRole("button", { name: "Table", exact: true })).toHaveAttribute(
          "aria-pressed",
          "true",
        );
        await expect(table).toBeVisible();
        await expect(tracker.getByText("7 of 7 songs", { exact: true })).toBeVisible();
        await expect(rowTitles(table)).toHaveCount(7);

        const leakHeader = table.getByRole("columnheader", { name: "Leak date" });
        await expect(leakHeader).toHaveAttribute("aria-sort", "none");
        await leakHeader.getByRole("button").focus();
        await page.keyboard.press("Enter");
        await expect(leakHeader).toHaveAttribute("aria-sort", "ascending");
        await expect(page).toHaveURL(/sort=leak/);
        // Oldest first; a song with no leak date comes last.
        await expect(rowTitles(table)).toHaveText(
          ["Loose End", "Tidewater", "Undertow", "Lantern Song", "Glass Coast", "Paper Moons", "Ghost Pier"].map(t),
        );
        await page.keyboard.press("Enter");
        await expect(leakHeader).toHaveAttribute("aria-sort", "descending");
        await expect(rowTitles(table).first()).toHaveText(t("Paper Moons"));
        await expect(rowTitles(table).last()).toHaveText(t("Ghost Pier"));
        await shot(page, "artist-tracker-1440");

        // At 1440 px the table fits: no sideways scrolling, in the page or in the table's frame.
        expect(await fitsWidth(page)).toBe(true);
        expect(
          await table.evaluate((el) =>
            el.parentElement ? el.parentElement.scrollWidth <= el.parentElement.clientWidth : false,
          ),
        ).toBe(true);

        await tracker.getByLabel("Availability").selectOption("og_file");
        await expect(page).toHaveURL(/availability=og_file/);
        await expect(tracker.getByText("2 of 7 songs", { exact: true })).toBeVisible();
        await expect(rowTitles(table)).toHaveText([t("Paper Moons"), t("Tidewater")]);

        // The address holds the view: a reload (or a shared link) shows the same.
        await page.reload();
        await expect(tracker.getByLabel("Availability")).toHaveValue("og_file");
        await expect(table.getByRole("columnheader", { name: "Leak date" })).toHaveAttribute("aria-sort", "descending");
        await expect(rowTitles(table)).toHaveText([t("Paper Moons"), t("Tidewater")]);

        await tracker.getByLabel("Search title or alias").fill("tide");
        await expect(tracker.getByText("1 of 7 songs", { exact: true })).toBeVisible();
        await tracker.getByRole("button", { name: "Clear filters" }).first().click();
        await expect(tracker.getByText("7 of 7 songs", { exact: true })).toBeVisible();
      });

      await test.step("on a phone the table is a list of labelled rows", async () => {
        await page.setViewportSize({ width: 375, height: 812 });
        await expect(table.getByRole("columnheader").first()).toBeHidden();
        await tracker.getByLabel("Sort by").selectOption("leak:asc");
        await expect(rowTitles(table).first()).toHaveText(t("Loose End"));
        expect(await fitsWidth(page)).toBe(true);
        await shot(page, "artist-tracker-375");
        await shot(page, "artist-tracker-375-rows", table);
        await tracker.getByRole("button", { name: "Eras", exact: true }).click();
        await expect(tracker.getByRole("heading", { level: 3 }).first()).toHaveText("Salt Years");
        // Only the pencil shows on a phone; the button keeps its name.
        await expect(tracker.getByRole("button", { name: "Edit era Salt Years", exact: true })).toBeVisible();
        expect(await fitsWidth(page)).toBe(true);
        await shot(page, "artist-tracker-375-eras");
        await page.setViewportSize({ width: 1440, height: 900 });
      });

      await test.step("the cards are one switch away, and a song opens from the table", async () => {
        await tracker.getByRole("button", { name: "Cards", exact: true }).click();
        await expect(page).toHaveURL(/view=cards/);
        await expect(songCard(tracker, t("Tidewater"))).toBeVisible();
        await tracker.getByRole("button", { name: "Table", exact: true }).click();
        await table.getByRole("link", { name: t("Glass Coast"), exact: true }).click();
        await expect(page.getByRole("heading", { level: 1, name: t("Glass Coast") })).toBeVisible();
      });
    } finally {
      // Leave the shared server's feeds as they were for the other tests.
      const batches = await (await page.request.get("/api/imports")).json();
      const mine = batches.items.find(
        (b: { fileName: string; status: string }) => b.fileName === fileName && b.status === "done",
      );
      if (mine) expect((await page.request.post(`/api/imports/${mine.id}/undo`)).status()).toBe(200);
    }
  });
});
