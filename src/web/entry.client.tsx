import { hydrate } from "@tanstack/react-query";
import { hydrateRoot } from "react-dom/client";
import { App } from "./app.tsx";
import { BOOT_ELEMENT_ID, type BootData } from "./boot.ts";
import { Document } from "./document.tsx";
import { installLeaveGuard } from "./lib/leave-guard.ts";
import { createQueryClient } from "./lib/query-client.ts";
import { rememberScroll } from "./lib/scroll.ts";
import { loadPage } from "./page-modules.ts";
import { matchPage, pageById } from "./routes.ts";

const bootJson = document.getElementById(BOOT_ELEMENT_ID)?.textContent ?? "";
const boot = JSON.parse(bootJson) as BootData;

const queryClient = createQueryClient();
// The page may come from the server's cache, rendered earlier; the server drops that cache
// whenever the data changes, so what arrives with the page is current as of now.
for (const query of boot.state.queries) query.state.dataUpdatedAt = Date.now();
hydrate(queryClient, boot.state);

// Load the current page's chunk first so hydration renders it without suspending.
const page =
  (boot.forcedPageId && pageById(boot.forcedPageId)) ||
  matchPage(location.pathname, new URLSearchParams(location.search)).page;
// (A moved address never arrives here: the server answered it with a redirect.)
if ("load" in page) await loadPage(page);

// Before the router listens: Back with unsaved changes in a form asks first, and Back to a
// page of the site goes back to where the visitor was on it.
installLeaveGuard();
rememberScroll();
hydrateRoot(
  document,
  <Document assets={boot.assets} bootJson={bootJson}>
    <App queryClient={queryClient} forcedPageId={boot.forcedPageId} origin={boot.origin} />
  </Document>,
);
