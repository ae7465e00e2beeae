import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "./fixtures";

/** The notification bell that is on screen (the side menu's on desktop, the top bar's on phones). */
export const bell = (page: Page) => page.getByRole("button", { name: /^Notifications/ });

/** The bell's open list. */
export const notificationList = (page: Page) => page.getByRole("dialog", { name: "Notifications" });

/** The unread count the API reports for `api`'s user. */
export async function unreadOf(api: APIRequestContext): Promise<number> {
  const res = await api.get("/api/notifications?limit=1");
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { unread: number }).unread;
}
