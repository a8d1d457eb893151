import { expect, signIn, test } from "./fixtures.ts";

// Each journey runs on a site of its own (the admin project's `ownSite`), whose backups are
// written to the default BACKUP_DIR: a folder inside DATA_DIR.
test.describe.configure({ timeout: 90_000 });

test("the admin home names the release; Backups: warned that they share the site's disk; a backup made now is followed to its end, then deleted after a confirmation", async ({
  page,
  visit,
  scan,
}) => {
  await signIn(page);
  // The release the site runs, as `cam-guide --version` says it, at the foot of the admin home.
  await expect(page.getByText(/^This site runs cam-guide 0\.1\.0 \(commit [0-9a-f]{12}/)).toBeVisible();
  await visit("/admin/backups");
  await expect(
    page.getByRole("note").filter({ hasText: "These backups are on the same disk as the site." }),
  ).toBeVisible();
  await scan();

  await page.getByRole("button", { name: "Back up now" }).click();
  const status = page.getByRole("status").filter({ hasText: /backup/i });
  // The line that says a backup runs gives way to how it ended; nothing says "started" after the end.
  await expect(status).toContainText("The backup is done", { timeout: 30_000 });
  await expect(page.getByText("Backup started")).toHaveCount(0);
  const files = page.getByRole("table", { name: "Backup files" });
  await expect(files.getByRole("row")).toHaveCount(2);
  const name = (await files.getByRole("link", { name: /^Download / }).getAttribute("download"))!;

  await files.getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this backup?" });
  await expect(dialog).toContainText(name);
  await scan();
  // Cancel keeps it; Delete removes it, and only it.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(files.getByRole("link", { name: `Download ${name}` })).toBeVisible();
  await files.getByRole("button", { name: `Delete ${name}` }).click();
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("No backup file in the folder yet.")).toBeVisible();
  await expect(page.getByTestId("toast")).toContainText("Backup deleted");
  // The run stays in the record of runs.
  await expect(page.getByRole("table", { name: "Last runs" }).getByText("OK")).toBeVisible();
});
