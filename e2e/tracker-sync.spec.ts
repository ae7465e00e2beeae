import type { APIRequestContext, Page } from "@playwright/test";
import { SYNC_MESSAGES } from "@unheard/shared";
import { as, expect, test, toastWith, unique } from "./support/fixtures";
import { closeAll, createMember, memberPage } from "./support/members";
import { bell, notificationList } from "./support/notifications";
import { type SheetServer, serveSheet } from "./support/sheet-server";

/** A sync runs in the server's job queue, shared with the rest of the suite's work: give it time. */
const SYNC_TIMEOUT = 30_000;

/** An artist's tracker as its editors keep it, in two states: before and after an edit. */
function sheets(tag: string) {
  const names = {
    artist: `Linked Artist ${tag}`,
    era: `Harbour ${tag}`,
    undertow: `Undertow ${tag}`,
    glass: `Glass Tide ${tag}`,
    ferry: `Night Ferry ${tag}`,
  };
  const header = "Name,Era,Available Length,Quality,Notes";
  const glass = `${names.glass},${names.era},Full,CDQ,`;
  return {
    names,
    before: [header, `${names.undertow},${names.era},Snippet,LQ,Played once on a stream`, glass].join("\r\n"),
    // The editors' change: Undertow's full version leaked in CD quality, and a new song.
    after: [
      header,
      `${names.undertow},${names.era},Full,CDQ,Played once on a stream`,
      glass,
      `${names.ferry},${names.era},Snippet,LQ,`,
    ].join("\r\n"),
  };
}

/** The link's card on the Linked trackers view, by its artist. */
const linkCard = (page: Page, artist: string) => page.getByRole("article", { name: artist });

/** Undo the link's applied syncs, newest first (the shared server's feeds as they were). */
async function undoSyncs(api: APIRequestContext, linkId: string): Promise<void> {
  const { items } = (await (await api.get("/api/imports")).json()) as {
    items: { id: string; linkId: string | null; status: string }[];
  };
  for (const b of items.filter((i) => i.linkId === linkId && i.status === "done")) {
    const res = await api.post(`/api/imports/${b.id}/undo`);
    expect(res.status(), await res.text()).toBe(200);
  }
}

// Issue 37: a tracker linked to its published sheet. The first sync waits for an admin's approval; later syncs
// apply by themselves, write the artist's changelog and tell followers once.
test.describe("tracker sync", () => {
  test.use({ storageState: as("super") });
  let sheet: SheetServer | undefined;
  test.afterEach(async () => {
    await sheet?.close();
  });

  test("an admin links a sheet, approves its first sync, and a change to the sheet reaches the changelog and a follower", async ({
    page,
    browser,
  }) => {
    test.slow();
    const tag = unique();
    const { names, before, after } = sheets(tag);
    sheet = await serveSheet(before);
    const follower = await createMember(`sync-${tag}`, { approve: true });

    // Link the sheet.
    await page.goto("/admin/import");
    await page.getByRole("navigation", { name: "Import" }).getByRole("link", { name: "Linked trackers" }).click();
    await expect(page).toHaveURL(/\?view=linked$/);
    const form = page.getByRole("form", { name: "Link a tracker" });
    await form.getByLabel("Artist").fill(names.artist);
    await form.getByLabel("Sheet link").fill(sheet.url);
    await expect(form.getByLabel("Sync every (minutes)")).toHaveValue("30");
    await form.getByLabel(/Import as verified/).check();
    await form.getByRole("button", { name: "Link tracker" }).click();
    await expect(toastWith(page, "Tracker linked. Its first sync waits for your approval.")).toBeVisible();

    // The first sync waits for approval, with why.
    const card = linkCard(page, names.artist);
    await expect(card.getByText("Waiting for your approval", { exact: true })).toBeVisible({ timeout: SYNC_TIMEOUT });
    await expect(card).toContainText("The first sync of a linked sheet waits for an admin's approval.");
    await expect(card.getByText("Not approved yet")).toBeVisible();
    await expect(card.getByRole("status")).toHaveText("Sync finished: waiting for your approval.");

    // Review it: the dry run, then Approve.
    await card.getByRole("button", { name: `Review the sync of ${names.artist}'s tracker` }).click();
    const review = page.getByRole("dialog", { name: `Review the sync of ${names.artist}'s tracker` });
    await expect(review.getByLabel("Dry run summary")).toContainText("Create2");
    const reviewRows = review.getByRole("table", { name: "Dry run rows" });
    await expect(reviewRows).toContainText(names.undertow);
    await expect(reviewRows).toContainText(names.glass);
    await review.getByRole("button", { name: "Approve and apply" }).click();
    await expect(toastWith(page, "Sync approved: 2 created, 0 updated")).toBeVisible();
    await expect(review).toBeHidden();
    // The Review button went with the pending sync: focus is on the artist's name.
    const artistLink = card.getByRole("link", { name: names.artist, exact: true });
    await expect(artistLink).toBeFocused();
    await expect(card.getByText("Syncing on schedule")).toBeVisible();
    await expect(card).toContainText("Done: 2 created · 0 updated · 0 skipped, approved by superadmin");

    // A member follows the artist.
    const artistId = (await artistLink.getAttribute("href"))?.split("/").pop() ?? "";
    expect((await follower.api.put(`/api/artists/${artistId}/follow`)).status()).toBe(200);

    // The editors change the sheet; Sync now. A slow sheet keeps it "Syncing…" (announced politely) until it answers.
    sheet.set(after);
    const release = sheet.hold();
    await card.getByRole("button", { name: `Sync now: ${names.artist}` }).click();
    await expect(toastWith(page, "Sync queued.")).toBeVisible();
    await expect(card.getByRole("status")).toHaveText("Syncing…");
    release();
    await expect(card.getByRole("status")).toHaveText(/^Sync finished: 1 created · 1 updated/, {
      timeout: SYNC_TIMEOUT,
    });
    await expect(card).toContainText(/Last sync\s*Done: 1 created · 1 updated/);
    await expect(card.getByText("Waiting for your approval", { exact: true })).toHaveCount(0);

    // Pause: no Sync now, no next sync. Resume: the sheet is checked at once, and nothing changed.
    await card.getByRole("button", { name: `Pause: ${names.artist}` }).click();
    await expect(card.getByText("Paused", { exact: true }).first()).toBeVisible();
    await expect(card.getByRole("button", { name: `Sync now: ${names.artist}` })).toHaveCount(0);
    const releaseAgain = sheet.hold();
    await card.getByRole("button", { name: `Resume: ${names.artist}` }).click();
    await expect(card.getByRole("status")).toHaveText("Syncing…");
    releaseAgain();
    await expect(card.getByRole("status")).toHaveText("Sync finished: nothing changed.", { timeout: SYNC_TIMEOUT });
    await expect(card.getByText("Syncing on schedule")).toBeVisible();

    // Change the schedule: a schedule out of bounds is refused in words, then every hour is saved; focus goes back.
    const change = card.getByRole("button", { name: `Change: ${names.artist}` });
    await change.click();
    const edit = page.getByRole("dialog", { name: `Change the link of ${names.artist}'s tracker` });
    const every = edit.getByLabel("Sync every (minutes)");
    await every.fill("3");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(every).toHaveAccessibleDescription(SYNC_MESSAGES.intervalRange);
    await expect(every).toBeFocused();
    await every.fill("60");
    await edit.getByRole("button", { name: "Save changes" }).click();
    await expect(toastWith(page, "Link saved")).toBeVisible();
    await expect(edit).toBeHidden();
    await expect(change).toBeFocused();
    await expect(card).toContainText("every hour");

    // The artist page's changelog has the lines.
    await artistLink.click();
    await expect(page.getByRole("heading", { level: 1, name: names.artist })).toBeVisible();
    const updates = page.getByRole("list", { name: `Updates to ${names.artist}'s tracker` });
    await expect(updates).toContainText(`New: ${names.ferry} (snippet, LQ)`);
    await expect(updates).toContainText(`${names.undertow}: snippet → full, CD quality`);

    // The follower has one notification for the sync, in the bell.
    const { context, page: followerPage } = await memberPage(browser, follower);
    await followerPage.goto("/");
    await bell(followerPage).click();
    await expect(notificationList(followerPage)).toContainText(`${names.artist}'s tracker: 1 new song, 1 upgrade`);
    const { items } = (await (await follower.api.get("/api/notifications")).json()) as { items: { kind: string }[] };
    expect(items.filter((n) => n.kind === "tracker_update")).toHaveLength(1);
    await closeAll(context);

    // Undo the syncs, then unlink: the confirmation, and focus back at the list's heading.
    const links = (await (await page.request.get("/api/tracker-links")).json()) as {
      items: { id: string; artist: { name: string } }[];
    };
    const linkId = links.items.find((l) => l.artist.name === names.artist)?.id ?? "";
    await undoSyncs(page.request, linkId);
    await page.goto("/admin/import?view=linked");
    await expect(card.getByText("Paused", { exact: true }).first()).toBeVisible();
    await card.getByRole("button", { name: `Unlink: ${names.artist}` }).click();
    await page
      .getByRole("alertdialog", { name: `Unlink ${names.artist}'s tracker?` })
      .getByRole("button", { name: "Unlink" })
      .click();
    await expect(toastWith(page, "Tracker unlinked")).toBeVisible();
    await expect(card).toHaveCount(0);
    await expect(page.getByRole("heading", { name: /^Linked trackers/ })).toBeFocused();
    await follower.api.dispose();
  });
});
