import { MESSAGES } from "@unheard/shared";
import { followerCount, newArtistName, uploadByArtist } from "./support/artists";
import { as, expect, toastWith, unique } from "./support/fixtures";
import { apiAs, apiAsVisitor, closeAll, createMember, memberPage } from "./support/members";
import { test } from "./support/pending-lock";
import { songCard } from "./support/songs";

// The songs here must stay pending while the tests look at them (and at who sees them).
test.use({ holdsPendingSongs: true });

test("a member uploads a song by a new artist, opens the artist page from the song and follows it", async ({
  browser,
}) => {
  const member = await createMember("artist-fan", { approve: true });
  const artist = newArtistName("Nova Reed");
  const { song, artistId } = await uploadByArtist(member.api, artist, `First Light ${unique()}`);
  const { context, page } = await memberPage(browser, member);

  await page.goto(`/song/${song.id}`);
  await page.getByRole("main").getByRole("link", { name: artist, exact: true }).first().click();
  await expect(page).toHaveURL(`/artists/${artistId}`);
  await expect(page.getByRole("heading", { level: 1, name: artist })).toBeVisible();
  await expect(page).toHaveTitle(`${artist} · Unheard`);
  await expect(page.getByText("Unclaimed profile")).toBeVisible();
  await expect(page.getByText(`Music by ${artist}`)).toBeVisible();
  // The only song is pending, and pending songs are shown to the artist and admins only.
  await expect(page.getByTestId("artist-track-count")).toHaveText("0 tracks");
  await expect(page.getByText(MESSAGES.noTracks)).toBeVisible();
  await expect(followerCount(page)).toHaveText("0 followers");
  await expect(page.getByRole("button", { name: "Edit profile" })).toHaveCount(0);

  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await expect(toastWith(page, MESSAGES.following)).toBeVisible();
  await expect(page.getByRole("button", { name: "Following", exact: true })).toBeVisible();
  await expect(followerCount(page)).toHaveText("1 follower");

  // The server kept it: after a reload and for everyone else.
  await page.reload();
  await expect(page.getByRole("button", { name: "Following", exact: true })).toBeVisible();
  await expect(followerCount(page)).toHaveText("1 follower");
  const visitor = await apiAsVisitor();
  const seen = await (await visitor.get(`/api/artists/${artistId}`)).json();
  expect(seen).toMatchObject({ followerCount: 1, isFollowing: false, isPlaceholder: true });

  await page.getByRole("button", { name: "Following", exact: true }).click();
  await expect(toastWith(page, MESSAGES.unfollowed)).toBeVisible();
  await expect(page.getByRole("button", { name: "Follow", exact: true })).toBeVisible();
  await expect(followerCount(page)).toHaveText("0 followers");
  expect((await (await visitor.get(`/api/artists/${artistId}`)).json()).followerCount).toBe(0);

  await visitor.dispose();
  await closeAll(context);
});

test("a visitor who clicks Follow is asked to log in and comes back to the artist", async ({ page }) => {
  const uploader = await createMember("artist-visitor", { approve: true });
  const artist = newArtistName("Juno Vale");
  const { artistId } = await uploadByArtist(uploader.api, artist);
  await page.goto(`/artists/${artistId}`);
  await expect(page.getByRole("heading", { level: 1, name: artist })).toBeVisible();
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  const toast = toastWith(page, MESSAGES.loginToFollow);
  await expect(toast).toBeVisible();
  await toast.getByRole("button", { name: "Login" }).click();
  await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Fartists%2F${artistId}$`));
});

test("an unknown artist shows 'Artist not found' in place (a 404), with a way home", async ({ page }) => {
  const response = await page.goto("/artists/no-such-artist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: MESSAGES.artistNotFound })).toBeVisible();
  await expect(page).toHaveURL(/\/artists\/no-such-artist$/);
  await page.getByRole("main").getByRole("link", { name: "Go Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test.describe("as an admin", () => {
  test.use({ storageState: as("admin") });

  test("sees pending tracks marked 'Pending' and edits the bio and links; a javascript: link is refused", async ({
    page,
  }) => {
    const uploader = await createMember("artist-edit", { approve: true });
    const artist = newArtistName("Mara Flint");
    const title = `Glass Hours ${unique()}`;
    const { artistId } = await uploadByArtist(uploader.api, artist, title);

    await page.goto(`/artists/${artistId}`);
    await expect(page.getByRole("heading", { level: 1, name: artist })).toBeVisible();
    const card = songCard(page, title);
    await expect(card).toBeVisible();
    await expect(page.getByRole("listitem").filter({ has: card })).toContainText("Pending");
    // Admins are not super admins: no verify switch or merge, but linking a placeholder to an account.
    await expect(page.getByRole("switch", { name: "Mark verified" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Merge into…" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Link to account…" })).toBeVisible();

    // Closing a dialog gives focus back to the button that opened it (WCAG 2.4.3).
    const editProfile = page.getByRole("button", { name: "Edit profile" });
    await editProfile.click();
    const dialog = page.getByRole("dialog", { name: "Edit artist profile" });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(editProfile).toBeFocused();
    await editProfile.click();
    await dialog.getByLabel("Website").fill("javascript:alert(document.cookie)");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(dialog.getByLabel("Website")).toHaveAccessibleDescription(MESSAGES.invalidLink);
    await expect(dialog).toBeVisible();

    // The API refuses it too, whatever the client does.
    const admin = await apiAs("admin");
    const refused = await admin.patch(`/api/artists/${artistId}`, {
      data: { bio: "x", instagram: null, twitter: "javascript:alert(1)", website: null },
    });
    expect(refused.status()).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain(MESSAGES.invalidLink);
    await admin.dispose();

    await dialog.getByLabel("Bio").fill("Dream pop from a lighthouse.");
    await dialog.getByLabel("Website").fill("https://example.com/mara");
    await dialog.getByLabel("Instagram").fill("https://instagram.com/mara");
    await dialog.getByRole("button", { name: "Save changes" }).click();
    await expect(toastWith(page, MESSAGES.artistUpdated)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByText("Dream pop from a lighthouse.")).toBeVisible();
    const website = page.getByRole("link", { name: "Website" });
    await expect(website).toHaveAttribute("href", "https://example.com/mara");
    await expect(website).toHaveAttribute("target", "_blank");
    await expect(website).toHaveAttribute("rel", "noopener noreferrer");
    await expect(page.getByRole("link", { name: "Instagram" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Twitter" })).toHaveCount(0);

    // Visitors do not get pending tracks.
    const visitor = await apiAsVisitor();
    const songs = await (await visitor.get(`/api/artists/${artistId}/songs`)).json();
    expect(songs.items).toEqual([]);
    await visitor.dispose();
  });

  test("links a placeholder to a member's account, whose profile then links to the artist page", async ({
    page,
    browser,
  }) => {
    const uploader = await createMember("artist-claim-up", { approve: true });
    const owner = await createMember("artist-claim-owner");
    const artist = newArtistName("Theo Marsh");
    const title = `Low Tide ${unique()}`;
    const { artistId } = await uploadByArtist(uploader.api, artist, title);

    await page.goto(`/artists/${artistId}`);
    await page.getByRole("button", { name: "Link to account…" }).click();
    const dialog = page.getByRole("dialog", { name: "Link to account…" });
    await dialog.getByRole("searchbox", { name: "Search users" }).fill(owner.email);
    await dialog.getByRole("button", { name: new RegExp(owner.email.replace(/[.+]/g, "\\$&")) }).click();
    await dialog.getByRole("button", { name: "Link account" }).click();
    await expect(toastWith(page, MESSAGES.artistClaimed)).toBeVisible();
    await expect(page).toHaveURL(`/artists/${owner.id}`);
    const { username } = (await (await owner.api.get("/api/me")).json()) as { username: string };
    await expect(page.getByRole("heading", { level: 1, name: username })).toBeVisible();
    await expect(songCard(page, title)).toBeVisible();
    expect((await owner.api.get(`/api/artists/${artistId}`)).status()).toBe(404);

    // The owner: 'View artist page' on the profile; on their own page no Follow, but Edit and the pending track.
    const { context, page: own } = await memberPage(browser, owner);
    await own.goto("/profile");
    await own.getByRole("link", { name: "View artist page" }).click();
    await expect(own).toHaveURL(`/artists/${owner.id}`);
    await expect(own.getByRole("heading", { level: 1, name: username })).toBeVisible();
    await expect(own.getByRole("button", { name: "Edit profile" })).toBeVisible();
    await expect(own.getByRole("button", { name: /^Follow/ })).toHaveCount(0);
    await expect(own.getByRole("listitem").filter({ has: songCard(own, title) })).toContainText("Pending");
    await closeAll(context);
  });
});

test.describe("as a super admin", () => {
  test.use({ storageState: as("super") });

  test("marks an artist verified and merges a placeholder into another artist", async ({ page }) => {
    const uploader = await createMember("artist-merge", { approve: true });
    const keep = newArtistName("Ada Stone");
    const dup = newArtistName("Ada Stone Dup");
    const kept = await uploadByArtist(uploader.api, keep, `Keep ${unique()}`);
    const gone = await uploadByArtist(uploader.api, dup, `Merge ${unique()}`);
    const fan = await createMember("artist-merge-fan");
    expect((await fan.api.put(`/api/artists/${gone.artistId}/follow`, { data: {} })).status()).toBe(200);

    await page.goto(`/artists/${kept.artistId}`);
    await expect(page.getByRole("heading", { level: 1, name: keep })).toBeVisible();
    const verified = page.getByRole("switch", { name: "Mark verified" });
    await expect(verified).not.toBeChecked();
    await verified.click();
    await expect(toastWith(page, "Artist verified")).toBeVisible();
    await expect(verified).toBeChecked();
    await expect(page.getByText("Verified artist")).toBeVisible();
    // Verifying does not claim the profile: the placeholder tools stay.
    await expect(page.getByRole("button", { name: "Merge into…" })).toBeVisible();

    await page.goto(`/artists/${gone.artistId}`);
    await expect(followerCount(page)).toHaveText("1 follower");
    await page.getByRole("button", { name: "Merge into…" }).click();
    const dialog = page.getByRole("dialog", { name: "Merge into…" });
    await dialog.getByRole("searchbox", { name: "Search artists" }).fill(keep);
    // The page's own artist is never offered as the target.
    await dialog
      .getByRole("button", { name: new RegExp(`^${keep}`) })
      .first()
      .click();
    await expect(dialog).toContainText(`${dup} will be merged into ${keep}`);
    await dialog.getByRole("button", { name: "Merge", exact: true }).click();
    await expect(toastWith(page, MESSAGES.artistsMerged)).toBeVisible();
    await expect(page).toHaveURL(`/artists/${kept.artistId}`);
    await expect(page.getByRole("heading", { level: 1, name: keep })).toBeVisible();
    // Songs and followers moved; the placeholder is gone.
    await expect(followerCount(page)).toHaveText("1 follower");
    await expect(songCard(page, gone.song.title)).toBeVisible();
    await expect(songCard(page, kept.song.title)).toBeVisible();
    await page.goto(`/artists/${gone.artistId}`);
    await expect(page.getByRole("heading", { level: 1, name: MESSAGES.artistNotFound })).toBeVisible();
  });
});
