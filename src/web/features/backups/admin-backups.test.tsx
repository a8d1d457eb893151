import { afterEach, expect, test } from "bun:test";
import { cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { siteOnDisk } from "#tests/support/site-on-disk.ts";
import { adminApi } from "#web/admin/admin-client.ts";
import { SettingsTab } from "#web/features/settings/admin-settings.tsx";
import { BACKUP_PRIVACY, BackupsTab } from "./admin-backups.tsx";
import { BackupScheduleForm } from "./backup-schedule-form.tsx";

// Each backup is a child process of its own: slower than a request on a busy machine.

afterEach(cleanup);

test("Back up now runs a backup, the page follows it to its end, and the file can be downloaded", async () => {
  const site = await siteOnDisk();
  routeFetchTo(site.asAdmin);
  renderAt("/admin/backups", <BackupsTab />);
  expect(await screen.findByText(BACKUP_PRIVACY)).toBeTruthy();
  expect(screen.getByText(/Off: no automatic backups/)).toBeTruthy();
  expect(screen.getByText("No backup has run yet.")).toBeTruthy();

  fireEvent.click(screen.getByRole("button", { name: "Back up now" }));
  // Polled until the run ends: its row says OK, and the file is offered.
  const runs = await screen.findByRole("table", { name: "Last runs" }, { timeout: 10_000 });
  await within(runs).findByText("OK", undefined, { timeout: 10_000 });
  expect(within(runs).getByText("Back up now")).toBeTruthy();
  const [file] = (await site.overview()).files;
  const link = within(screen.getByRole("table", { name: "Backup files" })).getByRole("link", {
    name: `Download ${file!.name}`,
  });
  expect(link.getAttribute("href")).toBe(`${adminApi.backups.files["~path"]}/${file!.name}`);
  expect((await site.asAdmin(link.getAttribute("href")!)).status).toBe(200);
  expect((screen.getByRole("button", { name: "Back up now" }) as HTMLButtonElement).disabled).toBe(false);
});

test("a failed run shows its reason", async () => {
  const site = await siteOnDisk({ backupDir: "/dev/null/backups" });
  await site.backups.run("schedule");
  await site.backups.idle();
  routeFetchTo(site.asAdmin);
  renderAt("/admin/backups", <BackupsTab />);
  const runs = await screen.findByRole("table", { name: "Last runs" });
  expect(within(runs).getByText("Scheduled")).toBeTruthy();
  expect(
    within(runs)
      .getByText(/Cannot create the backup folder/)
      .closest("td")?.textContent,
  ).toMatch(/^Failed:/);
});

test("Settings: the owner picks a schedule and a count; set by BACKUP_CRON on the server, it is shown read-only", async () => {
  const site = await siteOnDisk();
  routeFetchTo(site.asAdmin);
  renderAt("/admin/settings", <BackupScheduleForm />);
  const when = (await screen.findByLabelText("When to back up")) as HTMLSelectElement;
  fireEvent.change(when, { target: { value: "30 3 * * *" } });
  fireEvent.change(screen.getByLabelText("Automatic backups to keep"), { target: { value: "3" } });
  fireEvent.click(screen.getByRole("button", { name: "Save Backup Schedule" }));
  await screen.findByText(/Every day at 03:30/);
  expect((await site.overview()).schedule).toMatchObject({ cron: "30 3 * * *", keep: 3, cronSource: "settings" });
  expect(screen.getByText(/Next backup:/)).toBeTruthy();

  cleanup();
  const fixed = await siteOnDisk({ cron: "0 4 * * 0" });
  routeFetchTo(fixed.asAdmin);
  renderAt("/admin/settings", <BackupScheduleForm />);
  expect(await screen.findByText("(set by BACKUP_CRON on the server)")).toBeTruthy();
  expect(screen.getByText(/Every Sunday at 04:00/)).toBeTruthy();
  expect(screen.queryByLabelText("When to back up")).toBeNull();
  expect(screen.getByLabelText("Automatic backups to keep")).toBeTruthy();
});

test("Backups leads to the schedule in Settings: the link opens Settings at the schedule, which takes the focus", async () => {
  const site = await siteOnDisk();
  routeFetchTo(site.asAdmin);
  renderAt("/admin/backups", <BackupsTab />);
  const link = await screen.findByRole("link", { name: "Change the schedule in Settings" });
  expect(link.getAttribute("href")).toBe("/admin/settings#backup-schedule");
  cleanup();

  // Opened at that address, once every part of Settings has loaded above it.
  window.history.replaceState(null, "", "/admin/settings#backup-schedule");
  try {
    renderAt("/admin/settings", <SettingsTab />);
    const heading = await screen.findByRole("heading", { name: "Backups" });
    // Compared as a yes or no: a failed toBe prints both elements, and printing a happy-dom
    // element walks its whole document, every 50 ms, starving the reads the page waits for.
    await waitFor(() => expect(document.activeElement === heading).toBe(true), { timeout: 5_000 });
    expect(heading.closest("form")?.id).toBe("backup-schedule");
    expect(screen.getByLabelText("When to back up")).toBeTruthy();
  } finally {
    window.history.replaceState(null, "", "/");
  }
});

test("set by BACKUP_CRON on the server, the schedule is not offered as a link to Settings", async () => {
  const site = await siteOnDisk({ cron: "0 4 * * 0" });
  routeFetchTo(site.asAdmin);
  renderAt("/admin/backups", <BackupsTab />);
  expect(await screen.findByText(/The schedule is set by BACKUP_CRON on the server\./)).toBeTruthy();
  expect(screen.queryByRole("link", { name: "Change the schedule in Settings" })).toBeNull();
});
