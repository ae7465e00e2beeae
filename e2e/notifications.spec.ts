import { MESSAGES } from "@unheard/shared";
import { followerCount, newArtistName, uploadByArtist } from "./support/artists";
import { expect, toastWith, unique } from "./support/fixtures";
import { closeAll, createMember, memberPage } from "./support/members";
import { bell, notificationList, unreadOf } from "./support/notifications";
import { test } from "./support/pending-lock";
import { gotoLive } from "./support/songs";

// 'Verify All Songs' would send the uploaders 'song verified' notifications in the middle of the counts.
test.use({ holdsPendingSongs: true });

test("a follower's bell shows another member's new song by the artist live, opens it, and marks all read", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const fan = await createMember("notify-fan", { approve: true });
  const uploader = await createMember("notify-up", { approve: true });
  const artist = newArtistName("Lio Banks");
  const { artistId } = await uploadByArtist(uploader.api, artist, `Opening ${unique()}`);

  const { context, page } = await memberPage(browser, fan);
  await gotoLive(page, `/artists/${artistId}`);
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await page.getByRole("button", { name: "Follow", exact: true }).click();
  await expect(followerCount(page)).toHaveText("1 follower");

  // Another member uploads a song by the artist: the fan's bell counts it without a reload.
  const second = await uploadByArtist(uploader.api, artist, `Second Wind ${unique()}`);
  await expect(bell(page)).toHaveAccessibleName("Notifications, 1 unread");
  await bell(page).click();
  const list = notificationList(page);
  const item = list.getByRole("link", { name: new RegExp(`New song by ${artist}: “${second.song.title}”`) });
  await expect(item).toBeVisible();
  await expect(item).toContainText("Unread");
  await item.click();
  await expect(page).toHaveURL(`/song/${second.song.id}`);
  await expect(page.getByRole("heading", { level: 1, name: second.song.title })).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  expect(await unreadOf(fan.api)).toBe(0);

  // Two more arrive while the list is open: it shows them, and 'Mark all read' clears the count.
  await bell(page).click();
  await expect(list.getByRole("link", { name: new RegExp(second.song.title) })).not.toContainText("Unread");
  const third = await uploadByArtist(uploader.api, artist, `Third Rail ${unique()}`);
  const fourth = await uploadByArtist(uploader.api, artist, `Fourth Wall ${unique()}`);
  await expect(bell(page)).toHaveAccessibleName("Notifications, 2 unread");
  await expect(list.getByRole("link", { name: new RegExp(third.song.title) })).toContainText("Unread");
  await expect(list.getByRole("link", { name: new RegExp(fourth.song.title) })).toContainText("Unread");
  await list.getByRole("button", { name: "Mark all read" }).click();
  await expect(toastWith(page, MESSAGES.notificationsMarkedRead)).toBeVisible();
  await expect(bell(page)).toHaveAccessibleName("Notifications");
  await expect(list.getByText("Unread")).toHaveCount(0);
  await expect(list.getByRole("button", { name: "Mark all read" })).toBeDisabled();
  expect(await unreadOf(fan.api)).toBe(0);

  await closeAll(context);
});

test("notification settings save per switch, survive a reload, and a kind turned off is not sent", async ({
  browser,
}) => {
  const member = await createMember("notify-settings");
  const uploader = await createMember("notify-settings-up", { approve: true });
  const { context, page } = await memberPage(browser, member);
  await page.goto("/profile");
  const section = page.getByRole("region", { name: "Notifications" });
  const newSongs = section.getByRole("switch", { name: "New songs by artists you follow" });
  const digest = section.getByRole("switch", { name: "Daily e-mail digest" });
  await expect(newSongs).toBeChecked();
  await expect(section.getByRole("switch", { name: "Songs verified" })).toBeChecked();
  await expect(digest).not.toBeChecked();

  await newSongs.click();
  await expect(toastWith(page, MESSAGES.notificationSettingsSaved)).toBeVisible();
  await digest.click();
  await expect(digest).toBeChecked();
  await expect
    .poll(async () => (await (await member.api.get("/api/me/notification-settings")).json()) as unknown)
    .toMatchObject({ kinds: { new_song: false, song_verified: true }, emailDigest: true });

  await page.reload();
  await expect(newSongs).not.toBeChecked();
  await expect(digest).toBeChecked();
  await expect(section.getByRole("switch", { name: "Songs back to pending" })).toBeChecked();

  // Following an artist now brings no notification for its new songs.
  const artist = newArtistName("Quiet Room");
  const { artistId } = await uploadByArtist(uploader.api, artist);
  expect((await member.api.put(`/api/artists/${artistId}/follow`, { data: {} })).status()).toBe(200);
  await uploadByArtist(uploader.api, artist);
  expect(await unreadOf(member.api)).toBe(0);
  await closeAll(context);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the bell sits in the top bar for members and is absent for visitors", async ({ browser, page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
    await expect(bell(page)).toHaveCount(0);

    const { context, page: phone } = await memberPage(browser, await createMember("notify-phone"));
    await phone.goto("/");
    const button = phone.getByRole("banner").getByRole("button", { name: /^Notifications/ });
    await expect(button).toBeVisible();
    await button.click();
    const list = notificationList(phone);
    await expect(list.getByText("No notifications yet")).toBeVisible();
    const box = await list.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    await list.getByRole("link", { name: "Notification settings" }).click();
    await expect(phone).toHaveURL(/\/profile#notifications$/);
    await expect(phone.getByRole("switch", { name: "Daily e-mail digest" })).toBeVisible();
    await closeAll(context);
  });
});
