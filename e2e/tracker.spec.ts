import { MESSAGES } from "@unheard/shared";
import { uniqueSongWav } from "./support/audio-fixtures";
import { expect, test, toastWith, unique } from "./support/fixtures";
import { apiAs, closeAll, createMember, memberPage } from "./support/members";
import { songCard, uploadSong } from "./support/songs";

// Issue 16: leak details and versions of a song.
test("a member uploads a song with leak details, links another of theirs as a snippet of it, and search and home show it", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const member = await createMember("tracker", { approve: true });
  const { context, page } = await memberPage(browser, member);
  const title = `Tracker Anthem ${unique()}`;
  const artist = `Ghost Writer ${unique()}`;

  const parentId = await test.step("upload with leak details", async () => {
    await page.goto("/upload");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Primary artist").fill(artist);
    await page.getByLabel("Genre").selectOption("Rap");
    await page.locator("summary", { hasText: "Leak details" }).click();
    // The shared schema checks the section too: a date in the future is refused before anything is sent.
    await page.getByLabel("Leak date").fill("2999-01-01");
    await page.getByLabel("Audio file").setInputFiles({
      name: "anthem.wav",
      mimeType: "audio/wav",
      buffer: uniqueSongWav(3),
    });
    await page.getByRole("button", { name: "Upload Song" }).click();
    await expect(page.getByLabel("Leak date")).toHaveAccessibleDescription(MESSAGES.futureLeakDate);
    await page.getByLabel("Leak date").fill("2025-03-14");
    await page.getByLabel("Era").fill("Basement Tapes");
    await page.getByLabel("Producers").fill("Mike Deep, Frank Dukes");
    await page.getByLabel("Availability").selectOption("full");
    await page.getByLabel("Audio quality").selectOption("lossless");
    await page.getByLabel("Notes").fill("Surfaced in a group buy.");
    const created = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/api/songs"));
    await page.getByRole("button", { name: "Upload Song" }).click();
    const response = await created;
    expect(response.status()).toBe(201);
    await expect(page.getByRole("status").filter({ hasText: MESSAGES.uploadSuccess })).toBeVisible();
    return ((await response.json()) as { id: string }).id;
  });

  // The song starts pending; an admin verifies it so search and home show it.
  const admin = await apiAs("admin");
  expect((await admin.post(`/api/songs/${parentId}/verify`)).status()).toBe(200);
  await admin.dispose();

  await test.step("the song page shows the leak details", async () => {
    await page.goto(`/song/${parentId}`);
    const details = page.getByTestId("leak-details");
    await expect(details).toContainText("Basement Tapes");
    await expect(details).toContainText("Mike Deep, Frank Dukes");
    await expect(details).toContainText("Mar 14, 2025");
    await expect(details).toContainText("Full");
    await expect(details).toContainText("Lossless");
    await expect(details).toContainText("Surfaced in a group buy.");
  });

  const snippetTitle = `${title} (Snippet)`;
  const snippet = await uploadSong(member.api, { title: snippetTitle, artists: [artist], genre: "Rap" });

  await test.step("the owner links the other song as a snippet of it", async () => {
    await page.goto(`/song/${snippet.id}`);
    await page.getByRole("button", { name: "Link as a version of…" }).click();
    await page.getByLabel("Song it is a version of").fill(title);
    await page.getByRole("list", { name: "Matching songs" }).getByRole("button", { name: title }).click();
    await page.getByLabel("Kind").selectOption("snippet");
    await page.getByRole("button", { name: "Link version" }).click();
    await expect(toastWith(page, MESSAGES.versionLinked)).toBeVisible();
    await expect(page.getByTestId("version-of")).toHaveText(`Snippet of ${title}`);
    // Linking is an edit: it is in the history.
    await expect(page.getByTestId("history-entry").first()).toContainText(MESSAGES.versionLinked);
  });

  await test.step("the song page lists its version", async () => {
    await page.getByTestId("version-of").getByRole("link", { name: title }).click();
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByRole("list", { name: "Versions of this song" })).toContainText(snippetTitle);
  });

  await test.step("search shows one entry with its version count", async () => {
    await page.goto(`/?q=${encodeURIComponent(title)}`);
    await expect(page.getByRole("heading", { level: 1, name: "Search Results" })).toBeVisible();
    const card = songCard(page, title);
    await expect(card).toBeVisible();
    await expect(card.getByTestId("version-count")).toHaveText("1 version");
    await expect(songCard(page, snippetTitle)).toHaveCount(0);
  });

  await test.step("the home feed filtered by availability shows it, and the filter is in the URL", async () => {
    await page.goto("/");
    // The filters apply to the feeds, not to the recommendations beside them.
    const newest = page.getByRole("region", { name: "New Songs" });
    await page.getByLabel("Availability").selectOption("full");
    await expect(page).toHaveURL(/availability=full/);
    await expect(songCard(newest, title)).toBeVisible();
    await page.getByLabel("Availability").selectOption("snippet");
    await expect(page).toHaveURL(/availability=snippet/);
    await expect(songCard(newest, title)).toHaveCount(0);
    await page.reload();
    await expect(page.getByLabel("Availability")).toHaveValue("snippet");
  });

  await closeAll(context);
});

// Issue 27: tracker details (references, aliases, version label, tags, file date, track length).
test("a member uploads a song with tracker details, the song page and its card show them, and an edit keeps them", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const member = await createMember("tracker-details", { approve: true });
  const { context, page } = await memberPage(browser, member);
  const title = `Night Drive ${unique()}`;

  const songId = await test.step("upload with tracker details", async () => {
    await page.goto("/upload");
    await page.getByLabel("Title").fill(title);
    await page.getByLabel("Primary artist").fill(`Ghost Writer ${unique()}`);
    await page.getByLabel("Genre").selectOption("Rap");
    await page.locator("summary", { hasText: "Leak details" }).click();
    await page
      .getByLabel("Audio file")
      .setInputFiles({ name: "drive.wav", mimeType: "audio/wav", buffer: uniqueSongWav(3) });
    // The track length is checked by the shared schema before anything is sent.
    await page.getByLabel("Track length").fill("3 minutes");
    await page.getByRole("button", { name: "Upload Song" }).click();
    await expect(page.getByLabel("Track length")).toHaveAccessibleDescription(MESSAGES.invalidTrackLength);
    await page.getByLabel("Track length").fill("3:45");
    await page.getByLabel("Reference by").fill("Kid Ghost");
    await page.getByLabel("Also known as").fill("Late Drive, Highway Song");
    await page.getByLabel("Version label").fill("V2");
    const tags = page.getByRole("group", { name: "Tags" });
    await tags.getByRole("checkbox", { name: "Best of" }).check();
    await tags.getByRole("checkbox", { name: "Grail" }).check();
    await page.getByLabel("File date").fill("2024-12-01");
    await page.getByLabel("Availability").selectOption("og_file");
    await page.getByLabel("Audio quality").selectOption("cd_quality");
    const created = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/api/songs"));
    await page.getByRole("button", { name: "Upload Song" }).click();
    const response = await created;
    expect(response.status()).toBe(201);
    const song = (await response.json()) as { id: string; trackLength: number | null; tags: string[] };
    expect(song.trackLength).toBe(225);
    expect(song.tags).toEqual(["best", "grail"]);
    return song.id;
  });

  await test.step("the song page shows them", async () => {
    await page.goto(`/song/${songId}`);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByTestId("version-label")).toContainText("V2");
    const details = page.getByTestId("leak-details");
    await expect(details).toContainText("Best of");
    await expect(details).toContainText("Grail");
    await expect(details).toContainText("Late Drive, Highway Song");
    await expect(details).toContainText("Kid Ghost");
    await expect(details).toContainText("3:45");
    await expect(details).toContainText("Dec 1, 2024");
    await expect(details).toContainText("OG file");
    await expect(details).toContainText("CD quality");
  });

  await test.step("the edit form starts from them, and an edit of another field keeps them", async () => {
    await page.goto(`/songs/${songId}/edit`);
    await expect(page.getByLabel("Track length")).toHaveValue("3:45");
    await expect(page.getByLabel("Version label")).toHaveValue("V2");
    await expect(page.getByRole("checkbox", { name: "Best of" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Wanted" })).not.toBeChecked();
    await page.getByLabel("Notes").fill("Surfaced with its session files.");
    await page.getByLabel("Comment").fill("Added a note");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(toastWith(page, MESSAGES.editSaved)).toBeVisible();
    const details = page.getByTestId("leak-details");
    await expect(details).toContainText("Surfaced with its session files.");
    await expect(details).toContainText("3:45");
    await expect(details).toContainText("Best of");
    await expect(page.getByTestId("version-label")).toContainText("V2");
  });

  const admin = await apiAs("admin");
  expect((await admin.post(`/api/songs/${songId}/verify`)).status()).toBe(200);
  await admin.dispose();

  await test.step("its card on home shows the tag marks and the version label", async () => {
    await page.goto("/");
    const card = songCard(page.getByRole("region", { name: "New Songs" }), title);
    await expect(card.getByRole("img", { name: "Best of" })).toBeVisible();
    await expect(card.getByRole("img", { name: "Grail" })).toBeVisible();
    await expect(card.getByTestId("version-label")).toContainText("V2");
  });

  await closeAll(context);
});
