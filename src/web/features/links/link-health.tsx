import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { type AdminLink, autoFallbackInEffect, type HealthClass } from "#shared/features/links/contract.ts";
import { looksOffline, OFFLINE_HINT } from "#shared/features/links/health.ts";
import { adminApi, adminKey, answer, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminRefresh, useAdminSend } from "#web/admin/admin-queries.ts";
import { adminDateTime } from "#web/admin/date-time.ts";
import { toast, toastError } from "#web/stores/toast.ts";

// Link health (docs/product.md#link-health): what the last check of each link's destination
// found and the buttons that check now (the admin home sums them up).

type Health = Pick<
  AdminLink,
  "healthClass" | "lastCheckedAt" | "lastStatus" | "hopCount" | "finalUrl" | "consecutiveFailures" | "autoFallbackAfter"
>;

const HEALTH_LABELS: Record<HealthClass | "unchecked", string> = {
  healthy: "Healthy",
  redirected: "Redirected",
  broken: "Broken",
  blocked: "Blocked",
  unchecked: "Not checked yet",
};

const MEANING: Record<HealthClass, string> = {
  healthy: "the destination answered with a page",
  redirected: "the destination answered with a page after redirects (networks do this on purpose)",
  broken: "the destination did not answer with a working page",
  blocked: "the destination refuses automated checks (it may still work in a browser)",
};

/** A check's time in the admin's own time zone. */

/** One line saying what the last check found: answer, redirects, the address it ended at (or got no answer from), and when. */
export function healthDetails(link: Health): string {
  if (!link.healthClass || !link.lastCheckedAt) return "This destination has not been checked yet.";
  const answer = link.lastStatus === null ? "no answer" : `status ${link.lastStatus}`;
  const hops = link.hopCount ?? 0;
  const redirects = `${hops} redirect${hops === 1 ? "" : "s"}`;
  const failures =
    link.consecutiveFailures > 0
      ? `; ${link.consecutiveFailures} failed check${link.consecutiveFailures === 1 ? "" : "s"} in a row`
      : "";
  const where =
    link.lastStatus === null
      ? `No answer from ${link.finalUrl ?? "?"}`
      : `${answer}, ${redirects}, ended at ${link.finalUrl ?? "?"}`;
  return `${HEALTH_LABELS[link.healthClass]}: ${MEANING[link.healthClass]} (${where}), checked ${adminDateTime(link.lastCheckedAt)}${failures}.`;
}

/** The badge of a link's health: a word (never a colour alone), the details in its title. */
export function HealthBadge({ link }: { link: Health }) {
  const kind = link.healthClass ?? "unchecked";
  const short =
    link.healthClass && link.lastCheckedAt
      ? `${link.lastStatus === null ? "no answer" : `HTTP ${link.lastStatus}`}${link.hopCount ? `, ${link.hopCount} redirect${link.hopCount === 1 ? "" : "s"}` : ""}`
      : null;
  return (
    <span className="health-cell">
      <span className={`health-badge health-${kind}`} title={healthDetails(link)}>
        {HEALTH_LABELS[kind]}
      </span>
      {short && <small className="muted"> {short}</small>}
      {autoFallbackInEffect(link) && <small className="health-switched"> Clicks go to the fallback</small>}
    </span>
  );
}

/** The offline hint in the Links list, when the stored checks look like the server was offline. */
export function OfflineHint({ links }: { links: Pick<AdminLink, "healthClass" | "lastCheckedAt" | "lastStatus">[] }) {
  if (!looksOffline(links)) return null;
  return <p className="link-health-switched">{OFFLINE_HINT}</p>;
}

/** How often the Links page asks how a long run over all links is going. */
const POLL_MS = 1000;

/**
 * "Check all links now": every destination is fetched, a few at a time; the list shows what was
 * found. A run that takes longer than the server waits goes on: the page asks how it is going
 * every second (and shows the links already checked) until it ends.
 */
export function CheckAllLinks() {
  const queryClient = useQueryClient();
  const refresh = useAdminRefresh();
  const [progress, setProgress] = useState<{ checked: number; total: number } | null>(null);
  // The list as each answer gives it, while the run goes on.
  const show = (links: AdminLink[]) => queryClient.setQueryData(adminKey(adminApi.links), links);
  const run = useMutation({
    mutationFn: async () => {
      let state = await answer(adminApi.links.check.post({}));
      while (state.running) {
        show(state.links);
        setProgress({ checked: state.checked, total: state.total });
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        state = await answer(adminApi.links.check.get());
      }
      return state;
    },
    onSettled: () => setProgress(null),
    onSuccess: (answer) => {
      show(answer.links);
      void refresh(adminApi.links.check);
      if (answer.offline) {
        toastError(OFFLINE_HINT, `Checked ${answer.checked} links`);
        return;
      }
      const broken = answer.links.filter((link) => link.healthClass === "broken").length;
      toast({
        title: `Checked ${answer.checked} link${answer.checked === 1 ? "" : "s"}`,
        description: broken ? `${broken} broken: see the Health column.` : "None is broken.",
        variant: broken ? "destructive" : undefined,
      });
    },
    onError: checkFailed,
  });
  return (
    <div className="toolbar">
      <RunButton className="secondary" change={run}>
        {run.isPending
          ? progress
            ? `Checking links (${progress.checked} of ${progress.total})...`
            : "Checking links..."
          : "Check all links now"}
      </RunButton>
    </div>
  );
}

/** A check that could not run (the request failed, not the link). */
function checkFailed(error: Error) {
  toastError(`The check failed: ${error.message}`);
}

/** The label of the row's button that turns a link off: for a broken link it says where clicks will go. */
export function deactivateLabel(link: Pick<AdminLink, "active" | "healthClass" | "fallbackDestination">): string {
  if (!link.active) return "Activate";
  if (link.healthClass !== "broken") return "Deactivate";
  return link.fallbackDestination ? "Turn off: send clicks to the fallback" : "Turn off: send clicks back to the page";
}

/**
 * In the link's editor: what the last check found, "Check now", and whether clicks go to the
 * fallback by themselves (and why).
 */
export function LinkHealthPanel({ id }: { id: number }) {
  const links = useQuery({ ...adminQuery(adminApi.links), staleTime: 10_000 });
  const link = links.data?.find((l) => l.id === id);
  const send = useAdminSend();
  const check = useMutation({
    // Answers once the list shows what the check found.
    mutationFn: () => send(at(adminApi.links, { id }).check.post({})),
    onSuccess: (answer) => {
      toast({
        title: `${HEALTH_LABELS[answer.link.healthClass ?? "unchecked"]}: ${answer.link.slug}`,
        description: answer.reason,
        variant: answer.link.healthClass === "broken" ? "destructive" : undefined,
      });
    },
    onError: checkFailed,
  });
  if (!link) return null;
  const switched = autoFallbackInEffect(link);
  return (
    <section className="link-health" aria-labelledby={`link-health-${id}`}>
      <h3 id={`link-health-${id}`}>Health</h3>
      <p>
        <HealthBadge link={link} />
      </p>
      <p className="muted">{healthDetails(link)}</p>
      {switched && (
        <p className="link-health-switched" role="status">
          <strong>Clicks go to the fallback by themselves:</strong> the last {link.consecutiveFailures} checks found the
          destination broken, and this link uses its fallback after {link.autoFallbackAfter}.{" "}
          {link.fallbackDestination
            ? `Visitors go to ${link.fallbackDestination}`
            : "Visitors go back to the page they clicked on"}{" "}
          until a check finds the destination working again.
        </p>
      )}
      {link.healthClass === "broken" && !switched && link.active && (
        <p className="link-health-switched">
          A broken link never switches itself. To send its clicks elsewhere now, clear "Active" below (clicks then go to
          the fallback, or back to the page), or set a number of failed checks after which the fallback is used.
        </p>
      )}
      <RunButton className="secondary outline small-button" change={check}>
        {check.isPending ? "Checking..." : "Check now"}
      </RunButton>
    </section>
  );
}

/** A button that runs a check, disabled and marked busy while it runs. */
function RunButton({
  className,
  change,
  children,
}: {
  className: string;
  change: { mutate(): void; isPending: boolean };
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={className}
      onClick={() => change.mutate()}
      disabled={change.isPending}
      aria-busy={change.isPending}
    >
      {children}
    </button>
  );
}
