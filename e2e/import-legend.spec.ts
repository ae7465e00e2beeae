import { as, expect, test, unique } from "./support/fixtures";

// Issue 27: the import's legend step. Marks before titles become tags; a mark the default legend does not know is
// left out with a warning until the admin says what it means, and the import uses the meanings the dry run shows.
test.describe("import legend", () => {
  test.use({ storageState: as("super") });

  test("a super admin gives an unknown mark a meaning, the warning goes, and the song is imported with its tag", async ({
    page,
  }) => {
    const tag = unique();
    const fileName = `legend-${tag}.csv`;
    const csv = `Name,Artist(s)\r\n⭐ A Song ${tag},Legend Crew ${tag}\r\n🦄 B Song ${tag},Legend Crew ${tag}\r\n`;
    const warning = page.getByText("Mark 🦄 is not in the legend: left out");

    await page.goto("/admin/import");
    await page.getByLabel("Tracker file (CSV or TSV)").setInputFiles({
      name: fileName,
      mimeType: "text/csv",
      buffer: Buffer.from(csv),
    });

    // The marks step: ⭐ means Best of by default, 🦄 has no meaning yet and says so.
    const marks = page.getByRole("group", { name: "4. Marks" });
    await expect(marks).toBeVisible();
    await expect(marks.getByLabel("Meaning of ⭐")).toHaveValue("best");
    const unicorn = marks.getByLabel("Meaning of 🦄");
    await expect(unicorn).toHaveValue("");
    await expect(unicorn).toHaveAccessibleDescription(/Not in the legend/);
    await expect(warning).toBeVisible();

    // Keyboard: the select is reached and changed like any other; the dry run runs again on its own.
    await unicorn.focus();
    await unicorn.selectOption("wanted");
    await expect(unicorn).toHaveValue("wanted");
    await expect(warning).toHaveCount(0);
    await expect(marks.getByText("Not in the legend", { exact: false })).toHaveCount(0);

    await page.getByRole("button", { name: /^Import 2 new/ }).click();
    await expect(page.getByText("Import finished: 2 created, 0 updated, 0 skipped.")).toBeVisible();

    // The song carries the meaning chosen: Wanted.
    await page.getByRole("link", { name: `B Song ${tag}` }).click();
    await expect(page.getByRole("heading", { level: 1, name: `B Song ${tag}` })).toBeVisible();
    await expect(page.getByTestId("leak-details")).toContainText("Wanted");

    // Leave the shared server's feeds as they were for the other tests.
    const batches = await (await page.request.get("/api/imports")).json();
    const mine = batches.items.find((b: { fileName: string }) => b.fileName === fileName);
    expect((await page.request.post(`/api/imports/${mine.id}/undo`)).status()).toBe(200);
  });
});
