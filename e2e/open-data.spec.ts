import { readFileSync } from "node:fs";
import type { Download, Page } from "@playwright/test";
import { EXPORT_CSV_COLUMNS, type ExportSong } from "@unheard/shared";
import { parseCsv } from "../apps/server/src/test/export-fixtures";
import { expect, unique } from "./support/fixtures";
import { createMember } from "./support/members";
import { test } from "./support/pending-lock";
import { uploadSong } from "./support/songs";

// Verified demo songs no other spec edits, hides or deletes.
const DEMO_VERIFIED = [
  { title: "Saltwater Letters", artists: "Mara Vance" },
  { title: "Neon Prayer", artists: "Mara Vance; DJ Ketsu" },
  { title: "Low Orbit", artists: "DJ Ketsu" },
];

/** Click a download link; the saved file's name and text. */
async function downloadFrom(page: Page, name: string): Promise<{ fileName: string; text: string }> {
  const [download] = (await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).click()])) as [
    Download,
    unknown,
  ];
  const file = await download.path();
  return { fileName: download.suggestedFilename(), text: readFileSync(file, "utf8") };
}

test.describe("open data", () => {
  // A song of this test's must stay pending until both files are read.
  test.use({ holdsPendingSongs: true });

  test("a visitor finds the Developers page from About and downloads the catalogue as CSV and JSON", async ({
    page,
  }) => {
    const uploader = await createMember("open-data", { approve: true });
    const pendingTitle = `Not Yet Verified ${unique()}`;
    await uploadSong(uploader.api, { title: pendingTitle, artists: ["Open Data Band"] });

    await page.goto("/about");
    await page.getByRole("link", { name: "Developers: exports and API" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible();
    await expect(page).toHaveTitle("Developers · Unheard");
    await expect(page.getByRole("heading", { name: "Public API" })).toBeVisible();
    await expect(page.getByText("/api/export/songs.csv", { exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "Full reference (OpenAPI)" })).toHaveAttribute("href", "/api/docs");

    const csv = await downloadFrom(page, "Download CSV");
    expect(csv.fileName).toMatch(/^unheard-songs-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...rows] = parseCsv(csv.text);
    expect(header).toEqual([...EXPORT_CSV_COLUMNS]);
    const column = (name: string) => EXPORT_CSV_COLUMNS.indexOf(name as (typeof EXPORT_CSV_COLUMNS)[number]);
    const byTitle = new Map(rows.map((r) => [r[column("title")], r]));
    for (const song of DEMO_VERIFIED) {
      const row = byTitle.get(song.title);
      expect(row, song.title).toBeDefined();
      expect(row?.[column("artists")]).toBe(song.artists);
      expect(row?.[column("url")]).toMatch(new RegExp(`/song/${row?.[column("id")]}$`));
    }
    expect(byTitle.has(pendingTitle)).toBe(false);
    for (const row of rows) expect(row).toHaveLength(EXPORT_CSV_COLUMNS.length);

    const json = await downloadFrom(page, "Download JSON");
    expect(json.fileName).toMatch(/^unheard-songs-\d{4}-\d{2}-\d{2}\.json$/);
    const items = JSON.parse(json.text) as ExportSong[];
    const titles = items.map((s) => s.title);
    for (const song of DEMO_VERIFIED) expect(titles).toContain(song.title);
    expect(titles).not.toContain(pendingTitle);
    const neon = items.find((s) => s.title === "Neon Prayer");
    expect(neon?.artists.map((a) => a.name)).toEqual(["Mara Vance", "DJ Ketsu"]);
    expect(neon?.id).toBe(byTitle.get("Neon Prayer")?.[column("id")]);
  });
});
