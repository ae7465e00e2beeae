import { MESSAGES } from "@unheard/shared";
import { as, expect, submitLogin, toastWith, unique } from "./support/fixtures";
import { approvedMembers, closeAll, createMember, memberContext, memberPage } from "./support/members";
import { test } from "./support/pending-lock";
import { gotoLive, songCard, uploadSong } from "./support/songs";

// Every test here needs its songs to stay pending until it is done.
test.use({ holdsPendingSongs: true });

// Changes made in one page must reach the others within about a second.
const LIVE = { timeout: 2_000 };

const upvote = (scope: { getByRole: import("@playwright/test").Page["getByRole"] }) =>
  scope.getByRole("button", { name: /^Upvote/ });
const downvote = (scope: { getByRole: import("@playwright/test").Page["getByRole"] }) =>
  scope.getByRole("button", { name: /^Downvote/ });

test("three members verify a pending song and every open page follows live; a withdrawal returns it to pending", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const [uploader, a, b, c] = await approvedMembers("owner", "voter-a", "voter-b", "voter-c");
  const title = `Borrowed Light ${unique()}`;
  const song = await uploadSong(uploader.api, { title, artists: ["Juno Park"], genre: "Pop" });
  const contexts = await Promise.all([a, b, c, uploader].map((m) => memberContext(browser, m)));
  const [pa, pb, pc, pu] = await Promise.all(contexts.map((ctx) => ctx.newPage()));
  if (!pa || !pb || !pc || !pu) throw new Error("pages did not open");
  await Promise.all([
    gotoLive(pa, `/song/${song.id}`),
    gotoLive(pb, `/song/${song.id}`),
    gotoLive(pc, "/pending"),
    gotoLive(pu, "/pending"),
  ]);

  // The uploader sees the card in verification mode but may not vote, nor verify (not an admin).
  const ownCard = songCard(pu, title);
  await expect(ownCard.getByTestId("vote-net")).toHaveText("0 / 3");
  await expect(upvote(ownCard)).toBeDisabled();
  await expect(ownCard.getByText(MESSAGES.ownSongVote)).toBeVisible();
  await expect(ownCard.getByRole("button", { name: "Verify" })).toHaveCount(0);
  await expect(pu.getByRole("button", { name: "Verify All Songs" })).toHaveCount(0);

  // First vote, on the song page.
  await upvote(pa).click();
  await expect(toastWith(pa, MESSAGES.upvoted)).toBeVisible();
  await expect(upvote(pa)).toHaveAttribute("aria-pressed", "true");
  await expect(pb.getByText("Pending · 1 / 3")).toBeVisible(LIVE);
  await expect(songCard(pc, title).getByTestId("vote-net")).toHaveText("1 / 3", LIVE);
  await expect(ownCard.getByTestId("vote-net")).toHaveText("1 / 3", LIVE);

  await upvote(pb).click();
  await expect(toastWith(pb, MESSAGES.upvoted)).toBeVisible();
  await expect(pa.getByText("Pending · 2 / 3")).toBeVisible(LIVE);
  await expect(songCard(pc, title).getByTestId("vote-net")).toHaveText("2 / 3", LIVE);

  // The third, from the pending grid, verifies it.
  await upvote(songCard(pc, title)).click();
  await expect(toastWith(pc, MESSAGES.songVerifiedByVotes)).toBeVisible();
  for (const p of [pa, pb]) {
    await expect(p.getByText("Verified", { exact: true })).toBeVisible(LIVE);
    await expect(p.getByText(/^Pending ·/)).toHaveCount(0);
  }
  await expect(songCard(pc, title)).toHaveCount(0, LIVE);
  await expect(ownCard).toHaveCount(0, LIVE);

  // It is on home now.
  await gotoLive(pc, "/");
  const newSongs = pc.getByRole("region", { name: "New Songs" });
  await expect(songCard(newSongs, title)).toBeVisible();

  // One voter withdraws: pending again everywhere, without a reload.
  await upvote(pa).click();
  await expect(toastWith(pa, MESSAGES.voteRemoved)).toBeVisible();
  await expect(upvote(pa)).toHaveAttribute("aria-pressed", "false");
  for (const p of [pa, pb]) await expect(p.getByText("Pending · 2 / 3")).toBeVisible(LIVE);
  await expect(songCard(newSongs, title)).toHaveCount(0, LIVE);
  await expect(ownCard).toBeVisible(LIVE);
  await expect(ownCard.getByTestId("vote-net")).toHaveText("2 / 3");

  await closeAll(...contexts);
});

test("a downvote asks for a reason; votes toggle and switch", async ({ browser }) => {
  const [uploader, voter] = await approvedMembers("dv-owner", "dv-voter");
  const title = `Counterfeit Dawn ${unique()}`;
  const song = await uploadSong(uploader.api, { title, artists: ["Rook Ames"] });
  const { context, page } = await memberPage(browser, voter);
  await page.goto(`/song/${song.id}`);
  await expect(page.getByText("Pending · 0 / 3")).toBeVisible();

  await downvote(page).click();
  const dialog = page.getByRole("dialog", { name: "Downvote song" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Downvote" }).click();
  await expect(dialog.getByText(MESSAGES.downvoteReasonRequired)).toBeVisible();
  await dialog.getByRole("radio", { name: "Fake leak" }).check();
  await dialog.getByLabel("Details").fill("  This is an AI voice clone  ");
  const sent = page.waitForRequest((r) => r.method() === "PUT" && r.url().endsWith(`/api/songs/${song.id}/vote`));
  await dialog.getByRole("button", { name: "Downvote" }).click();
  expect((await sent).postDataJSON()).toEqual({
    value: "down",
    reason: "fake_leak",
    details: "This is an AI voice clone",
  });
  await expect(toastWith(page, MESSAGES.downvoted)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Pending · -1 / 3")).toBeVisible();
  await expect(downvote(page)).toHaveAttribute("aria-pressed", "true");

  // Upvoting replaces the downvote; upvoting again withdraws it.
  await upvote(page).click();
  await expect(toastWith(page, MESSAGES.upvoted)).toBeVisible();
  await expect(page.getByText("Pending · 1 / 3")).toBeVisible();
  await expect(downvote(page)).toHaveAttribute("aria-pressed", "false");
  await upvote(page).click();
  await expect(toastWith(page, MESSAGES.voteRemoved)).toBeVisible();
  await expect(page.getByText("Pending · 0 / 3")).toBeVisible();

  // The dialog starts blank each time, and Cancel sends nothing.
  await downvote(page).click();
  await expect(dialog.getByRole("radio", { name: "Fake leak" })).not.toBeChecked();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Pending · 0 / 3")).toBeVisible();

  await closeAll(context);
});

test("a visitor opening a pending song is offered to log in, and votes once back", async ({ page }) => {
  const uploader = await createMember("visitor-song", { approve: true });
  const voter = await createMember("visitor-voter", { approve: true });
  const song = await uploadSong(uploader.api, { title: `Open Door ${unique()}`, artists: ["Lia Fenn"] });
  // Pending songs are for members (issue 24): a visitor gets the same answer as for a missing song, and a way in.
  await page.goto(`/song/${song.id}`);
  await expect(page.getByRole("heading", { level: 1, name: MESSAGES.songNotFound })).toBeVisible();
  await expect(page.getByText(MESSAGES.songMaybePending)).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: song.title })).toHaveCount(0);
  await page.getByRole("link", { name: "Log in" }).click();
  await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Fsong%2F${song.id}$`));
  await submitLogin(page, voter.email, voter.password);
  await expect(page).toHaveURL(new RegExp(`/song/${song.id}$`));
  await upvote(page).click();
  await expect(upvote(page)).toHaveAttribute("aria-pressed", "true");
});

test.describe("as an admin", () => {
  test.use({ storageState: as("admin") });

  test("verifies a pending song directly from the pending grid", async ({ page }) => {
    const uploader = await createMember("to-verify", { approve: true });
    const title = `Signal Fire ${unique()}`;
    const song = await uploadSong(uploader.api, { title, artists: ["Ona Reyes"] });
    await page.goto("/pending");
    const card = songCard(page, title);
    await expect(card).toBeVisible();
    await expect(card.getByRole("button", { name: "Delete" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Verify All Songs" })).toHaveCount(0);
    await card.getByRole("button", { name: "Verify" }).click();
    await expect(toastWith(page, MESSAGES.songVerified)).toBeVisible();
    await expect(card).toHaveCount(0);
    await page.goto(`/song/${song.id}`);
    await expect(page.getByText("Verified", { exact: true })).toBeVisible();
  });
});

test.describe("as a super admin", () => {
  test.use({ storageState: as("super") });

  test("deletes a pending song from the grid after confirming", async ({ page }) => {
    const uploader = await createMember("to-delete", { approve: true });
    const title = `Wrong Upload ${unique()}`;
    await uploadSong(uploader.api, { title, artists: ["Nobody Real"] });
    await page.goto("/pending");
    const card = songCard(page, title);
    await card.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog).toContainText(MESSAGES.deleteConfirm);
    await dialog.getByRole("button", { name: "Delete" }).click();
    await expect(toastWith(page, MESSAGES.songDeleted)).toBeVisible();
    await expect(card).toHaveCount(0);
  });
});
