import type { APIRequestContext } from "@playwright/test";
import { MESSAGES, offWaitlistMessage } from "@unheard/shared";
import { as, expect, sideMenu, test, toastWith, unique } from "./support/fixtures";
import { apiAs, apiAsVisitor, createMember } from "./support/members";
import { uploadSong } from "./support/songs";

/** Every admin endpoint with a harmless body; ids need not exist, as the role check comes first. */
const ADMIN_CALLS: { method: "get" | "post" | "put"; path: string; data?: unknown; superOnly?: boolean }[] = [
  { method: "get", path: "/api/reports" },
  { method: "post", path: "/api/reports/x/process", data: { action: "resolve" } },
  { method: "put", path: "/api/songs/x/hidden", data: { hidden: true } },
  { method: "get", path: "/api/edit-suggestions" },
  { method: "post", path: "/api/edit-suggestions/x/review", data: { action: "reject" } },
  { method: "get", path: "/api/admin/waitlist" },
  { method: "post", path: "/api/admin/waitlist/x/approve" },
  { method: "post", path: "/api/admin/users/x/approve" },
  { method: "get", path: "/api/admin/users" },
  { method: "put", path: "/api/admin/users/x/role", data: { role: "verified_contributor" } },
  { method: "get", path: "/api/admin/audit", superOnly: true },
];

async function call(api: APIRequestContext, c: (typeof ADMIN_CALLS)[number]) {
  const res = await api[c.method](c.path, c.data === undefined ? {} : { data: c.data });
  return { status: res.status(), body: (await res.json()) as { error?: { message?: string } } };
}

test("admin endpoints refuse users (403) and visitors (401); the audit log refuses plain admins", async () => {
  const listener = await apiAs("listener");
  const visitor = await apiAsVisitor();
  const admin = await apiAs("admin");
  for (const c of ADMIN_CALLS) {
    const asUser = await call(listener, c);
    expect(asUser.status, `${c.method} ${c.path} as a user`).toBe(403);
    expect(asUser.body.error?.message).toBe(c.superOnly ? MESSAGES.superAdminOnly : MESSAGES.adminOnly);
    expect((await call(visitor, c)).status, `${c.method} ${c.path} as a visitor`).toBe(401);
  }
  const audit = await call(admin, { method: "get", path: "/api/admin/audit" });
  expect(audit.status).toBe(403);
  expect(audit.body.error?.message).toBe(MESSAGES.superAdminOnly);
  await Promise.all([listener.dispose(), visitor.dispose(), admin.dispose()]);
});

test.describe("as a plain user", () => {
  test.use({ storageState: as("listener") });

  test("the admin screens say 'Admin access only.' and the audit log 'Super admin access only.'", async ({ page }) => {
    for (const path of ["/reports", "/edit-suggestions", "/admin/waitlist", "/admin/users"]) {
      await page.goto(path);
      await expect(page.getByRole("alert").filter({ hasText: MESSAGES.adminOnly }), path).toBeVisible();
    }
    await page.goto("/admin/audit");
    await expect(page.getByRole("alert").filter({ hasText: MESSAGES.superAdminOnly })).toBeVisible();
  });
});

test.describe("as an admin", () => {
  test.use({ storageState: as("admin") });

  test("the users table lets people in and hands out contributor status only", async ({ page }) => {
    const member = await createMember("roles");
    const menu = sideMenu(page);
    await page.goto("/reports");
    await expect(menu.getByRole("link", { name: "Users", exact: true })).toBeVisible();
    await expect(menu.getByRole("link", { name: "Audit Log" })).toHaveCount(0);
    await menu.getByRole("link", { name: "Users", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();

    await page.getByRole("searchbox", { name: "Search users" }).fill(member.email);
    const rows = page.getByRole("table", { name: "Users" }).getByRole("row");
    const row = rows.filter({ hasText: member.email });
    await expect(rows).toHaveCount(2); // header + the one match
    await expect(row.getByText("Waitlisted")).toBeVisible();
    await row.getByRole("button", { name: "Let in" }).click();
    await expect(toastWith(page, offWaitlistMessage(member.email))).toBeVisible();
    await expect(row.getByText("Member", { exact: true })).toBeVisible();
    await expect(row.getByRole("button", { name: "Let in" })).toHaveCount(0);

    const select = row.getByRole("combobox", { name: /^Role for / });
    await expect(select.locator("option")).toHaveText(["User", "Verified Contributor"]);
    await select.selectOption({ label: "Verified Contributor" });
    await expect(toastWith(page, MESSAGES.roleUpdated)).toBeVisible();
    // The role badge is the first cell after the user's name.
    await expect(row.getByRole("cell").first()).toHaveText("Verified Contributor");

    // Admins cannot change other admins (or themselves), and the API agrees.
    await page.getByRole("searchbox", { name: "Search users" }).fill("unheard.local");
    await expect(rows.filter({ hasText: "admin@unheard.local" }).getByText("This is you")).toBeVisible();
    await expect(rows.filter({ hasText: "super@unheard.local" }).getByRole("combobox")).toHaveCount(0);
    const api = await apiAs("admin");
    const refused = await api.put(`/api/admin/users/${member.id}/role`, { data: { role: "admin" } });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(MESSAGES.roleNotAllowed);
    await Promise.all([api.dispose(), member.api.dispose()]);
  });
});

test.describe("as a super admin", () => {
  test.use({ storageState: as("super") });

  test("makes a user a verified contributor, then an admin, and the audit log shows who did what", async ({ page }) => {
    const member = await createMember("promote", { approve: true });
    // New accounts get a neutral handle, not the e-mail's local part (issue 24).
    const username = ((await (await member.api.get("/api/me")).json()) as { username: string }).username;
    const listener = await apiAs("listener");
    const song = await uploadSong(listener, { title: `Audit Song ${unique()}`, artists: ["Audit Artist"] });
    const superApi = await apiAs("super");
    expect((await superApi.put(`/api/songs/${song.id}/hidden`, { data: { hidden: true } })).status()).toBe(200);

    await page.goto("/admin/users");
    await page.getByRole("searchbox", { name: "Search users" }).fill(username);
    const row = page.getByRole("table", { name: "Users" }).getByRole("row").filter({ hasText: member.email });
    const roleBadge = row.getByRole("cell").first();
    await expect(roleBadge).toHaveText("User");
    const select = row.getByRole("combobox", { name: `Role for ${username}` });
    await expect(select.locator("option")).toHaveText(["User", "Verified Contributor", "Admin"]);
    await select.selectOption({ label: "Verified Contributor" });
    await expect(toastWith(page, MESSAGES.roleUpdated)).toBeVisible();
    await expect(roleBadge).toHaveText("Verified Contributor");
    await expect
      .poll(async () => ((await (await member.api.get("/api/me")).json()) as { role: string }).role)
      .toBe("verified_contributor");

    await select.selectOption({ label: "Admin" });
    await expect(roleBadge).toHaveText("Admin");
    await expect
      .poll(async () => ((await (await member.api.get("/api/me")).json()) as { isAdmin: boolean }).isAdmin)
      .toBe(true);

    await sideMenu(page).getByRole("link", { name: "Audit Log" }).click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.getByRole("heading", { level: 1, name: "Audit Log" })).toBeVisible();
    const log = page.getByRole("list", { name: "Audit log" }).getByRole("listitem");
    const roleChanges = log.filter({ hasText: "changed a role" }).filter({ hasText: username });
    await expect(roleChanges.filter({ hasText: "User → Verified Contributor" })).toHaveCount(1);
    await expect(roleChanges.filter({ hasText: "Verified Contributor → Admin" })).toHaveCount(1);
    await expect(roleChanges.first()).toContainText("superadmin");
    // Newest first: the promotion to admin is listed above the contributor step.
    await expect(roleChanges.first()).toContainText("Verified Contributor → Admin");
    await expect(log.filter({ hasText: "let someone in" }).filter({ hasText: member.email })).toContainText("admin");
    const hidden = log.filter({ hasText: "hid a song" }).filter({ has: page.locator(`a[href="/song/${song.id}"]`) });
    await expect(hidden).toHaveCount(1);
    await expect(hidden.locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);

    await Promise.all([listener.dispose(), superApi.dispose(), member.api.dispose()]);
  });
});
