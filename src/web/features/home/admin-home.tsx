import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { RECOVERY_CODE_COUNT } from "#shared/features/auth/constants.ts";
import type { AdminHome, HomeBackup } from "#shared/features/home/contract.ts";
import { OFFLINE_HINT } from "#shared/features/links/health.ts";
import { isLocalOrigin } from "#shared/features/settings/contract.ts";
import { describeLinkCheckHours } from "#shared/features/settings/link-checks.ts";
import { adminApi } from "#web/admin/admin-client.ts";
import { adminQuery } from "#web/admin/admin-queries.ts";
import { adminPath, NEW_RECORD } from "#web/admin/admin-sections.ts";
import { adminDateTime } from "#web/admin/date-time.ts";
import { Loading } from "#web/ui/error-state.tsx";
import { ProxyNotice } from "./proxy-notice.tsx";
import { SetupChecklist } from "./setup-checklist.tsx";

// The admin home (docs/product.md#admin-home): what needs attention first, shortcuts, then how
// the site is doing (posts, links, the last backup, the last 7 days), all from one request.

/** One thing that needs the owner, with the way to it. */
interface AttentionItem {
  id: string;
  text: string;
  href: string;
  action: string;
  /** Said strongly: the owner may be locked out. */
  strong?: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Recovery codes were used (to sign in, or to confirm a change): how many are left, and the
 * way to new ones. None left comes first and strongly: losing the phone would lock the owner out.
 */
function recoveryCodesItem(recovery: AdminHome["recoveryCodes"]): AttentionItem | null {
  if (recovery === null || recovery.left >= RECOVERY_CODE_COUNT) return null;
  const make = { id: "recovery-codes", href: adminPath("account"), action: "Make new recovery codes" };
  if (recovery.left === 0)
    return {
      ...make,
      strong: true,
      text: "You have no recovery codes left: if you lose your phone, you cannot sign in until whoever runs the server turns two-factor sign-in off.",
    };
  const used = recovery.lastUsedAt ? ` on ${adminDateTime(recovery.lastUsedAt)}` : "";
  return {
    ...make,
    text: `A recovery code was used${used}: ${recovery.left} of ${RECOVERY_CODE_COUNT} left. If it was not you, change your password too.`,
  };
}

/** What needs the owner first, most serious first; empty when all is well. */
function attentionItems(home: AdminHome): AttentionItem[] {
  const items: AttentionItem[] = [];
  const recovery = recoveryCodesItem(home.recoveryCodes);
  if (recovery) items.push(recovery);
  if (home.backup?.status === "failed")
    items.push({
      id: "backup",
      text: `The last backup failed${home.backup.error ? `: ${home.backup.error}` : "."}`,
      href: adminPath("backups"),
      action: "Open Backups",
    });
  else if (home.backup === null && home.backupsHere)
    items.push({
      id: "backup",
      text: "No backup has been made yet: a broken disk would lose every post and setting.",
      href: adminPath("backups"),
      action: "Set up backups",
    });
  const { broken, blocked, offline } = home.links;
  if (offline) items.push({ id: "offline", text: OFFLINE_HINT, href: adminPath("links"), action: "Open Links" });
  else if (broken + blocked > 0) {
    const parts = [broken && `${plural(broken, "link")} broken`, blocked && `${plural(blocked, "link")} blocked`];
    items.push({
      id: "links",
      text: `${parts.filter(Boolean).join(" and ")}: visitors who click ${broken + blocked === 1 ? "it" : "them"} may not get where you send them.`,
      href: `${adminPath("links")}?health=attention`,
      action: "Review these links",
    });
  }
  const { origin, source } = home.address;
  if (source === "none")
    items.push({
      id: "address",
      text: "The site's public address is not set: the sitemap, the RSS feed and links shared to search engines need it.",
      href: adminPath("settings"),
      action: "Set the address",
    });
  else if (source === "sign-in")
    items.push({
      id: "address",
      text: `The site's public address (${origin}) was taken from where you signed in and is not confirmed yet.`,
      href: adminPath("settings"),
      action: "Confirm the address",
    });
  else if (origin && isLocalOrigin(origin))
    items.push({
      id: "address",
      text: `The site's public address (${origin}) only works on this computer or your local network.`,
      href: adminPath("settings"),
      action: "Change the address",
    });
  return items;
}

/** /admin: how the site is doing and what needs attention. */
export function HomeTab() {
  // Fetched again on every visit: what was just saved elsewhere in the dashboard counts at once.
  const home = useQuery({ ...adminQuery(adminApi.home), staleTime: 0 });
  return (
    <div className="admin-home">
      <h2>Home</h2>
      <Shortcuts />
      {home.isPending ? (
        <Loading text="Loading how the site is doing..." />
      ) : home.isError ? (
        <div role="alert">
          <p>Could not load the overview: {home.error.message}</p>
          <button type="button" onClick={() => void home.refetch()}>
            Try Again
          </button>
        </div>
      ) : (
        <Overview home={home.data} />
      )}
    </div>
  );
}

/** The things an owner does most, one tap each. */
function Shortcuts() {
  return (
    <nav aria-label="Shortcuts" className="home-shortcuts">
      <ul>
        <li>
          <Link href={adminPath("posts", NEW_RECORD)} role="button">
            Write a post
          </Link>
        </li>
        <li>
          <Link href={adminPath("offers", NEW_RECORD)} role="button" className="secondary">
            Add an offer
          </Link>
        </li>
        <li>
          <Link href={adminPath("links", NEW_RECORD)} role="button" className="secondary outline">
            Add a link
          </Link>
        </li>
        <li>
          <Link href={adminPath("media")} role="button" className="secondary outline">
            Media library
          </Link>
        </li>
        <li>
          {/* The public site, in this tab: a full page load, not the dashboard's router. */}
          <a href="/" role="button" className="secondary outline">
            View the site
          </a>
        </li>
      </ul>
    </nav>
  );
}

/** The attention list (only when there is something), then one card per part of the site. */
function Overview({ home }: { home: AdminHome }) {
  const attention = attentionItems(home);
  return (
    <>
      <ProxyNotice proxy={home.proxy} />
      <SetupChecklist items={home.setup} />
      {attention.length > 0 && (
        <section className="home-attention" aria-labelledby="home-attention-heading">
          <h3 id="home-attention-heading">Needs your attention</h3>
          <ul>
            {attention.map((item) => (
              <li key={item.id}>
                {item.strong ? <strong>{item.text}</strong> : item.text} <Link href={item.href}>{item.action}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="home-cards">
        <PostsCard posts={home.posts} />
        <LinksCard links={home.links} />
        <BackupCard backup={home.backup} here={home.backupsHere} />
        <VisitsCard analytics={home.analytics} />
      </div>
      <p className="muted home-version">This site runs {home.version}.</p>
    </>
  );
}

function Card({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="home-card" aria-labelledby={`home-${id}`}>
      <h3 id={`home-${id}`}>{title}</h3>
      {children}
    </section>
  );
}

const number = new Intl.NumberFormat("en-US");

/** Figures as a list: the number, then what it counts. */
function Figures({ items }: { items: [number, string][] }) {
  return (
    <ul className="home-figures">
      {items.map(([n, label]) => (
        <li key={label}>
          <strong>{number.format(n)}</strong> {label}
        </li>
      ))}
    </ul>
  );
}

function PostsCard({ posts }: { posts: AdminHome["posts"] }) {
  const total = posts.published + posts.drafts + posts.scheduled;
  return (
    <Card id="posts" title="Posts">
      {total === 0 ? (
        <p className="muted">No posts yet. Write the first one: it stays a draft until you publish it.</p>
      ) : (
        <Figures
          items={[
            [posts.published, "published"],
            [posts.drafts, posts.drafts === 1 ? "draft" : "drafts"],
            [posts.scheduled, "scheduled"],
          ]}
        />
      )}
      <p>
        <Link href={adminPath("posts")}>All posts</Link>
      </p>
    </Card>
  );
}

function LinksCard({ links }: { links: AdminHome["links"] }) {
  const attention = links.broken + links.blocked;
  const healthy = links.total - links.broken - links.blocked - links.redirected - links.unchecked - links.off;
  const { schedule } = links;
  const how =
    schedule.hours === null
      ? "Links are not checked automatically: use “Check all links now” in Links."
      : `Links are checked automatically ${describeLinkCheckHours(schedule.hours)}.`;
  return (
    <Card id="links" title="Links">
      {links.total === 0 ? (
        <p className="muted">No links yet: each platform, offer and product gets one when it is saved.</p>
      ) : (
        <Figures
          items={(
            [
              // A check that reached nothing says nothing about the links: not "broken".
              [links.broken, links.offline ? "not reached by the last check (this server may be offline)" : "broken"],
              [links.blocked, "blocked (the site refuses automated checks)"],
              [links.redirected, "redirected"],
              [healthy, "healthy"],
              [links.unchecked, "not checked yet"],
              [links.off, "turned off"],
            ] as [number, string][]
          ).filter(([n]) => n > 0)}
        />
      )}
      <p className="muted">{how}</p>
      <p>
        {attention > 0 && !links.offline ? (
          <Link href={`${adminPath("links")}?health=attention`}>
            Review the {plural(attention, "link")} needing attention
          </Link>
        ) : (
          <Link href={adminPath("links")}>All links</Link>
        )}
      </p>
    </Card>
  );
}

/** A time in the admin's own time zone. */

/** A size in bytes as the owner reads it. */
function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ["KB", "MB", "GB"];
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${size < 10 ? size.toFixed(1) : Math.round(size)} ${units[unit]}`;
}

const BACKUP_STATUS: Record<HomeBackup["status"], string> = {
  ok: "Succeeded",
  failed: "Failed",
  running: "Running now",
};

function BackupCard({ backup, here }: { backup: HomeBackup | null; here: boolean }) {
  if (!here)
    return (
      <Card id="backup" title="Last backup">
        <p className="muted">
          This site's database is PostgreSQL: it is backed up where it lives (your provider's backups or pg_dump), not
          by cam-guide.
        </p>
        <p>
          <Link href={adminPath("backups")}>How to back it up</Link>
        </p>
      </Card>
    );
  return (
    <Card id="backup" title="Last backup">
      {backup === null ? (
        <p className="muted">
          Backups are not set up yet: no backup has been made. Without one, a broken disk loses every post and setting.
        </p>
      ) : (
        <>
          <p>
            <strong className={`home-status home-status-${backup.status}`}>{BACKUP_STATUS[backup.status]}</strong>{" "}
            {backup.status === "running"
              ? `(started ${adminDateTime(backup.startedAt)})`
              : `on ${adminDateTime(backup.finishedAt ?? backup.startedAt)}`}
            {backup.trigger === "manual" ? ", made by hand" : ", made on schedule"}
            {backup.size !== null && backup.status === "ok" ? `, ${fileSize(backup.size)}` : ""}.
          </p>
          {backup.status === "failed" && backup.error && <p>{backup.error}</p>}
        </>
      )}
      <p>
        <Link href={adminPath("backups")}>{backup === null ? "Set up backups" : "All backups"}</Link>
      </p>
    </Card>
  );
}

function VisitsCard({ analytics }: { analytics: AdminHome["analytics"] }) {
  return (
    <Card id="visits" title="Last 7 days">
      {analytics === null ? (
        <p className="muted">
          Visits are not counted: counting is turned off on the server (ANALYTICS=off). Ask whoever runs the server to
          turn it on.
        </p>
      ) : analytics.visitors === 0 && analytics.clicks === 0 ? (
        <p className="muted">Nothing counted in the last 7 days yet. Counts appear after the first visits.</p>
      ) : (
        <Figures
          items={[
            [analytics.visitors, analytics.visitors === 1 ? "visitor" : "visitors"],
            [analytics.clicks, analytics.clicks === 1 ? "link click" : "link clicks"],
          ]}
        />
      )}
      {analytics !== null && (
        <p>
          <Link href={`${adminPath("analytics")}?days=7`}>Open Analytics</Link>
        </p>
      )}
    </Card>
  );
}
