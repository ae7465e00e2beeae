import { as, expect, test } from "./support/fixtures";

// Issue 38, newcomer finding 6: the upload form's artist fields suggested nothing, though the search index knows
// every artist. Each artist field is a combobox offering the artists already on Unheard.
test.use({ storageState: as("listener") });

test("the upload form's artist fields suggest the artists already on Unheard, by keyboard and by pointer", async ({
  page,
}) => {
  await page.goto("/upload");
  await expect(page.getByRole("heading", { level: 1, name: "Upload Song" })).toBeVisible();
  const primary = page.getByRole("combobox", { name: "Primary artist" });
  const suggestions = page.getByRole("listbox", { name: "Artist suggestions" });

  // Typing offers the artists whose names match, each with its track count; the list is named by the field.
  await primary.click();
  await page.keyboard.type("nova rey");
  await expect(primary).toHaveAttribute("aria-expanded", "true");
  const nova = suggestions.getByRole("option", { name: /^Nova Reyes/ });
  await expect(nova).toBeVisible();
  await expect(nova).toContainText(/\d+ tracks?/);
  await expect(primary).toHaveAttribute("aria-controls", (await suggestions.getAttribute("id")) ?? "");

  // The arrow makes an option active (the field keeps focus and names it); Enter puts the name in the field and
  // closes the list, without sending the form.
  await page.keyboard.press("ArrowDown");
  const activeId = await primary.getAttribute("aria-activedescendant");
  expect(activeId).toBeTruthy();
  await expect(page.locator(`[id="${activeId}"]`)).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(primary).toHaveValue("Nova Reyes");
  await expect(primary).toBeFocused();
  await expect(primary).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("listbox", { name: "Artist suggestions" })).toHaveCount(0);
  await expect(page.getByLabel("Title")).not.toHaveAccessibleDescription(/.+/);

  // A second artist, chosen with the pointer; Escape closes a list without leaving the page.
  await page.getByRole("button", { name: "Add artist" }).click();
  const second = page.getByRole("combobox", { name: "Artist 2" });
  await second.fill("kid halc");
  const kid = page.getByRole("option", { name: /^Kid Halcyon/ });
  await kid.click();
  await expect(second).toHaveValue("Kid Halcyon");
  await second.fill("nova");
  await expect(page.getByRole("option", { name: /^Nova Reyes/ })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(second).toHaveAttribute("aria-expanded", "false");
  await expect(page).toHaveURL(/\/upload$/);

  // With the list open under a field, a press on what sits below it lands: the list gives up its room only once
  // the press is over (it moved the button away between press and release, and the click was lost).
  await second.fill("nova re");
  await expect(page.getByRole("option", { name: /^Nova Reyes/ })).toBeVisible();
  await page.getByRole("button", { name: "Add artist" }).click();
  await expect(page.getByRole("combobox", { name: "Artist 3" })).toBeFocused();
  await expect(second).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("listbox", { name: "Artist suggestions" })).toHaveCount(0);

  // A new name is typed as ever: the list only offers.
  await primary.fill("Somebody Nobody Knows Yet");
  await page.keyboard.press("Tab");
  await expect(primary).toHaveValue("Somebody Nobody Knows Yet");
});
