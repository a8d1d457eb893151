import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { AdminLink } from "#shared/features/links/contract.ts";
import { expect, signIn, test, waitForHydration } from "./fixtures.ts";
import { LOOPBACK_LINK_HOST } from "./loopback-link-port.ts";

// It points every link at a server it starts on 127.0.0.1 (the checker must never reach
// anything else), so it runs on a site of its own (playwright.config.ts). The checker reaches
// that server only through the reserved test name, on the one port the site opened for it.
const TARGET = "platform-two";
test.describe.configure({ timeout: 120_000 });

type Link = Pick<AdminLink, "id" | "slug" | "destination" | "active" | "fallbackDestination" | "notes">;

/** A server on the site's one loopback port, answering 404 under /gone and 200 elsewhere, until the journey ends. */
async function loopbackFor(port: number): Promise<{ origin: string; close: () => Promise<void> }> {
  const loopback: Server = createServer((request, response) => {
    response.writeHead(request.url?.startsWith("/gone") ? 404 : 200, { "content-type": "text/plain" });
    response.end("loopback");
  });
  await new Promise<void>((resolve) => loopback.listen(port, "127.0.0.1", resolve));
  return {
    origin: `http://${LOOPBACK_LINK_HOST}:${(loopback.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => loopback.close(() => resolve())),
  };
}

test("a link whose destination answers 404 is Broken after Check all links now, and the admin home says so", async ({
  page,
  visit,
  scan,
  baseURL,
  site,
}) => {
  const loopback = await loopbackFor(site.loopbackLinkPort);
  await signIn(page);

  const put = (link: Link, destination: string) =>
    page.request.put(`/api/admin/link/${link.id}`, {
      data: {
        destination,
        active: link.active,
        fallbackDestination: link.fallbackDestination ?? "",
        notes: link.notes ?? "",
      },
      headers: { origin: new URL(baseURL!).origin },
    });
  const links = (await (await page.request.get("/api/admin/links")).json()) as Link[];
  expect(links.map((l) => l.slug)).toContain(TARGET);
  try {
    for (const link of links)
      expect(
        (await put(link, `${loopback.origin}/${link.slug === TARGET ? "gone" : "fine"}/${link.slug}`)).status(),
      ).toBe(200);

    await visit("/admin/links");
    const row = page.getByRole("row").filter({ hasText: `/go/${TARGET}` });
    await expect(row).toContainText("Not checked yet");
    await page.getByRole("button", { name: "Check all links now" }).click();
    await expect(row.getByText("Broken", { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(row.getByText("Broken", { exact: true })).toHaveAttribute("title", /status 404.*\/gone\//);
    const other = page.getByRole("row").filter({ hasText: "/go/platform-one" });
    await expect(other.getByText("Healthy", { exact: true })).toBeVisible();
    // A broken link's off button says it turns the link off, and where its clicks go.
    await expect(row.getByRole("button", { name: `Turn off: send clicks back to the page ${TARGET}` })).toBeVisible();
    // The health filter and the search narrow the list, by keyboard too.
    const health = page.getByRole("combobox", { name: "Health" });
    await health.selectOption("attention");
    await expect(page.getByText(`1 of ${links.length} links`)).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: "/go/" })).toHaveCount(1);
    await health.selectOption("all");
    await page.getByRole("searchbox", { name: "Find a link" }).focus();
    // Only the target's destination has /gone/ (any case matches).
    await page.keyboard.type("/GONE/");
    await expect(page.getByText(`1 of ${links.length} links`)).toBeVisible();
    await expect(row).toBeVisible();
    await scan();
    await page.getByRole("searchbox", { name: "Find a link" }).fill("");

    // The admin home puts it first, and leads to the list showing only the links needing attention.
    // The dashboard's code loads on demand: scanned once its heading is there.
    await page.goto("/admin");
    await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" })).toBeVisible();
    const attention = page.getByRole("region", { name: "Needs your attention" });
    await expect(attention).toContainText("1 link broken");
    await scan();
    const active = links.filter((l) => l.active).length;
    await expect(page.getByRole("region", { name: "Links" })).toContainText(`${active - 1} healthy`);
    await scan();
    await attention.getByRole("link", { name: "Review these links" }).click();
    await expect(page).toHaveURL(/\/admin\/links\?health=attention$/);
    await expect(page.getByRole("combobox", { name: "Health" })).toHaveValue("attention");
    await expect(page.getByRole("row").filter({ hasText: "/go/" })).toHaveCount(1);

    // A phone: the badges fit.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/admin/links");
    await waitForHydration(page);
    await expect(page.getByRole("row").filter({ hasText: `/go/${TARGET}` })).toContainText("Broken");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  } finally {
    await loopback.close();
  }
});
