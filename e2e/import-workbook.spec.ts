import type { Page } from "@playwright/test";
import { as, expect, test, unique } from "./support/fixtures";
import { trackerNames, trackerWorkbook, XLSX_TYPE } from "./support/tracker-workbook";

const summary = (page: Page) => page.getByLabel("Dry run summary");
const count = (page: Page, label: string) =>
  summary(page)
    .locator("div")
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator("dd");
const dryRunRows = (page: Page) => page.getByRole("table", { name: "Dry run rows" }).getByRole("row");
/** A step of the import page: its panel, by its heading. */
const panel = (page: Page, heading: string) =>
  page.locator("section").filter({ has: page.getByRole("heading", { level: 2, name: heading, exact: true }) });

// Issue 37: a tracker downloaded whole (.xlsx) imports as it is: the song tabs, each tab's header below its title
// and announcement rows, the era its era header row states, blank Era cells continued, medal marks, dates with
// unknown parts, and a "Link" cell's hyperlink.
test.describe("import a workbook", () => {
  test.use({ storageState: as("super") });

  test("a super admin imports a three-tab tracker as it is, after trying another header row", async ({ page }) => {
    test.slow();
    const tag = unique();
    const names = trackerNames(tag);
    const fileName = `tracker-${tag}.xlsx`;

    await page.goto("/admin/import");
    await expect(page.getByRole("heading", { level: 1, name: "Import" })).toBeVisible();
    await page.getByLabel("Default artist").fill(names.artist);
    await page.getByLabel(/^Tracker file/).setInputFiles({
      name: fileName,
      mimeType: XLSX_TYPE,
      buffer: trackerWorkbook(names),
    });

    // The tabs: Unreleased and Stems list songs, Updates is left out and says why.
    const tabs = panel(page, "2. Tabs and header rows");
    await expect(page.getByRole("checkbox", { name: "Unreleased" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Stems" })).toBeChecked();
    const updates = page.getByRole("checkbox", { name: "Updates" });
    await expect(updates).not.toBeChecked();
    await expect(updates).toHaveAccessibleDescription("Left out: Not a song list");
    // The header row found under the title and announcement rows: line 3.
    const unreleasedHeader = page.getByRole("combobox", { name: "Header row of Unreleased" });
    await expect(unreleasedHeader).toHaveValue("3");
    await expect(page.getByRole("checkbox", { name: "Unreleased" })).toHaveAccessibleDescription(
      "2 song rows, header on row 3 (found)",
    );

    // The era the era header row states: its name, span, counts as stated, and a line of its story.
    const eras = panel(page, "Eras in the sheet");
    const era = eras.getByRole("listitem").filter({ has: page.getByRole("heading", { name: names.era }) });
    await expect(era).toContainText("Unreleased, row 4 · 2018 – 2019");
    await expect(era).toContainText("1 OG File(s) · 2 Full · 1 Snippet(s) · 1 Unavailable");
    await expect(era).toContainText(names.eraStory);

    // The 🥇 mark is "wanted" in the default legend.
    await expect(page.getByLabel("Meaning of 🥇")).toHaveValue("wanted");

    // The dry run: three songs from two tabs, each row with its tab; the era row is not a song.
    await expect(count(page, "Create")).toHaveText("3");
    await expect(dryRunRows(page).filter({ hasText: names.stem })).toContainText("Stems");
    await expect(dryRunRows(page).filter({ hasText: names.wanted })).toContainText("Unreleased");
    await expect(dryRunRows(page).filter({ hasText: names.era })).toHaveCount(0);

    // Another header row (the era row, line 4): the columns are named after its cells and mapped afresh; no column
    // is the title any more, and the dry run says so.
    await unreleasedHeader.selectOption("4");
    await expect(page.getByRole("combobox", { name: `Import column ${names.era} of Unreleased as` })).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Import column Name of Unreleased as" })).toHaveCount(0);
    await expect(page.getByRole("alert").filter({ hasText: "Unreleased: Map a column to Title." })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Import \d+ new/ })).toBeDisabled();
    await expect(page.getByRole("checkbox", { name: "Unreleased" })).toHaveAccessibleDescription(
      /header on row 4 \(chosen\)/,
    );

    // Back to line 3: Name is the title again.
    await unreleasedHeader.selectOption("3");
    await expect(page.getByRole("combobox", { name: "Import column Name of Unreleased as" })).toHaveValue("title");
    await expect(page.getByRole("combobox", { name: "Import column Link(s) of Unreleased as" })).toHaveValue("links");
    await expect(count(page, "Create")).toHaveText("3");
    await expect(tabs.getByRole("status")).toHaveText("");

    await page.getByLabel(/Import as verified/).check();
    await page.getByRole("button", { name: "Import 3 new, 0 updated" }).click();
    await expect(page.getByText("Import finished: 3 created, 0 updated, 0 skipped.")).toBeVisible();

    // The songs: the hyperlinked "Link" cell kept its URL, the medal is the Wanted tag, ??/??/2019 is 2019, and the
    // song under the era header row (its Era cell blank) belongs to the era.
    const songLink = (title: string) => page.getByRole("link", { name: title, exact: true });
    const wantedHref = await songLink(names.wanted).getAttribute("href");
    await songLink(names.linked).click();
    await expect(page.getByRole("heading", { level: 1, name: names.linked })).toBeVisible();
    await expect(page.getByTestId("leak-links").getByRole("link")).toHaveAttribute("href", names.linkUrl);
    await page.goto(wantedHref ?? "");
    await expect(page.getByRole("heading", { level: 1, name: names.wanted })).toBeVisible();
    const details = page.getByTestId("leak-details");
    await expect(details).toContainText("Wanted");
    await expect(details).toContainText(names.era);
    await expect(details).toContainText(/File date\s*2019/);

    // Leave the shared server's feeds as they were for the other tests.
    const batches = await (await page.request.get("/api/imports")).json();
    const mine = batches.items.find((b: { fileName: string }) => b.fileName === fileName);
    expect((await page.request.post(`/api/imports/${mine.id}/undo`)).status()).toBe(200);
  });
});
