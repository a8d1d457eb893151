import { type UseQueryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { SESSION_ENDED_LOGIN } from "#shared/features/auth/constants.ts";
import { AnalyticsTab } from "#web/features/analytics/admin-analytics.tsx";
import { AccountTab } from "#web/features/auth/admin-account.tsx";
import { clearAdminFlag, hasAdminFlag, setAdminFlag } from "#web/features/auth/admin-session.ts";
import { useSessionCheck } from "#web/features/auth/session-check.ts";
import { SignInAgain } from "#web/features/auth/sign-in-again.tsx";
import { BackupsTab } from "#web/features/backups/admin-backups.tsx";
import { CategoriesTab } from "#web/features/blog/admin-categories.tsx";
import { PostEditor, PostsTab } from "#web/features/blog/admin-posts.tsx";
import { HomeTab } from "#web/features/home/admin-home.tsx";
import { LinksTab, NewLinkEditor } from "#web/features/links/admin-links.tsx";
import { MediaTab } from "#web/features/media/admin-media.tsx";
import { OfferEditor, OffersTab } from "#web/features/offers/admin-offers.tsx";
import { ProductsTab } from "#web/features/products/admin-products.tsx";
import { SettingsTab } from "#web/features/settings/admin-settings.tsx";
import { PagesTab } from "#web/features/site-pages/admin-pages.tsx";
import { AdminHeader } from "#web/layout/admin-header.tsx";
import { ApiError, retryQuery } from "#web/lib/query-client.ts";
import { loadPage } from "#web/page-modules.ts";
import { pageById } from "#web/routes.ts";
import { sessionEnded, sessionResumed, useSessionStore } from "#web/stores/session.ts";
import { toast } from "#web/stores/toast.ts";
import { Loading } from "#web/ui/error-state.tsx";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { adminApi, answer, at, authApi } from "./admin-client.ts";
import { adminQuery } from "./admin-queries.ts";
import {
  ADMIN_SECTIONS,
  type AdminSection,
  adminPath,
  NEW_RECORD,
  readAdminPath,
  sectionLabel,
} from "./admin-sections.ts";

// What to focus once the next admin address has rendered (each address mounts the page
// anew): the nav link just followed, or the section it opened (an editor, its list).
let focusNext: "nav" | "panel" | null = null;

// The list address (its page and search) a post's editor was opened from, to go back to.
let openedFrom: { record: string; list: string } | null = null;

const noSubscription = () => () => {};

/** The local flag; null while hydrating, so the first render matches the server's HTML. */
function useAdminFlag(): boolean | null {
  return useSyncExternalStore(noSubscription, hasAdminFlag, () => null);
}

/** /admin and /admin/{section}[/{id}]: the dashboard (docs/product.md#admin-dashboard). */
export default function AdminPage() {
  const [location, navigate] = useLocation();
  const queryClient = useQueryClient();
  const flag = useAdminFlag();
  const me = useSessionCheck(flag ?? false);
  const isAdmin = me.data?.isAdmin === true;
  // Once the dashboard has shown, it stays: a session that ends under the admin's hands is
  // signed into again in place (SignInAgain), so no open form loses what was typed. Each
  // address mounts the page anew: one opened while signed out stays too.
  const [shown, setShown] = useState(() => useSessionStore.getState().ended);
  const leaving = useRef(false);
  const signedOut = useRef(false);
  const search = useSearch();
  const { section, record } = readAdminPath(location);
  const label = sectionLabel(section);

  useEffect(() => {
    if (!isAdmin) return;
    setShown(true);
    // Signed in another way (the sign-in form without its script): this browser now knows it
    // was signed in, so a session that ends is named as such.
    if (!hasAdminFlag()) setAdminFlag(me.data?.user);
  }, [isAdmin, me.data?.user]);

  // Signed out: what the dashboard fetched is forgotten once it has gone from the screen. Not
  // before: until the sign-in page can show, this one stays, and every query emptied under it
  // would be asked again, now without a session.
  useEffect(
    () => () => {
      if (signedOut.current) queryClient.clear();
    },
    [queryClient],
  );

  // The sign-in page's code is fetched now: every way out of the dashboard (Sign Out, a session
  // that ended) leads there, and a page whose code is still coming keeps this one on screen,
  // asking for data the sign-out has just cleared.
  useEffect(() => {
    const login = pageById("admin-login");
    if (login) void loadPage(login).catch(() => {});
  }, []);

  useEffect(() => {
    if (flag === null || me.isPending || me.isFetching || isAdmin || leaving.current) return;
    if (shown) {
      sessionEnded(false);
      return;
    }
    // Without the server's yes, the sign-in page; it says why when this browser was signed in.
    leaving.current = true;
    if (flag) clearAdminFlag();
    navigate(flag ? SESSION_ENDED_LOGIN : "/admin-login", { replace: true });
  }, [flag, isAdmin, shown, me.isPending, me.isFetching, navigate]);

  async function signOut() {
    leaving.current = true;
    signedOut.current = true;
    try {
      await answer(authApi.logout.post({}));
    } finally {
      clearAdminFlag();
      sessionResumed();
      toast({ title: "Success", description: "Logged out successfully" });
      // Back to the login page after about half a second.
      setTimeout(() => navigate("/admin-login"), 500);
    }
  }

  const meta = <PageMeta title={`${label} - Admin Dashboard`} description="Manage the site's content." noindex />;
  if (!isAdmin && !shown) {
    return (
      <>
        {meta}
        <AdminHeader />
        <main id="main" className="container" tabIndex={-1}>
          <div className="when-script">
            <Loading text="Checking your session..." />
          </div>
          <section className="status-page when-no-script">
            <h1>The dashboard needs JavaScript</h1>
            <p>Turn it on for this site in your browser's settings, then reload this page.</p>
          </section>
        </main>
      </>
    );
  }

  const open = (path: string) => {
    focusNext = "panel";
    navigate(path);
  };
  const list = adminPath(section);

  return (
    <>
      {meta}
      <AdminHeader
        actions={
          <button type="button" className="secondary outline" onClick={() => void signOut()}>
            Sign Out
          </button>
        }
      >
        <AdminNav current={section} />
      </AdminHeader>
      <main id="main" className="container admin" tabIndex={-1}>
        <h1 className="admin-title">Admin Dashboard</h1>
        <SignInAgain />
        <Panel at={location}>
          {section === "home" && <HomeTab />}
          {section === "posts" &&
            (record === undefined ? (
              <>
                <div className="toolbar">
                  <Link
                    href={adminPath("posts", NEW_RECORD)}
                    role="button"
                    onClick={() => {
                      focusNext = "panel";
                    }}
                  >
                    New Post
                  </Link>
                </div>
                <PostsTab
                  onEdit={(post) => {
                    openedFrom = { record: String(post.id), list: search ? `${list}?${search}` : list };
                    open(adminPath("posts", post.id));
                  }}
                  onNew={() => open(adminPath("posts", NEW_RECORD))}
                />
              </>
            ) : (
              <ByIdEditor
                record={record}
                // The post itself, by id: the list holds no text.
                load={(id) => adminQuery(at(adminApi.blog.post, { id }))}
                noun="post"
                section={section}
                edit={(post) => (
                  <PostEditor
                    key={post?.id ?? NEW_RECORD}
                    post={post}
                    onDone={() => open(openedFrom?.record === record ? openedFrom.list : list)}
                  />
                )}
              />
            ))}
          {section === "offers" &&
            (record === undefined ? (
              <OffersTab
                onEdit={(offer) => open(adminPath("offers", offer.id))}
                onNew={() => open(adminPath("offers", NEW_RECORD))}
              />
            ) : (
              <ByIdEditor
                record={record}
                load={(id) => fromList(adminQuery(adminApi["affiliate-offers"]), id)}
                noun="offer"
                section={section}
                edit={(offer) => <OfferEditor key={offer?.id ?? NEW_RECORD} offer={offer} onDone={() => open(list)} />}
              />
            ))}
          {section === "categories" && <CategoriesTab />}
          {section === "products" && <ProductsTab />}
          {section === "links" &&
            (record === undefined ? (
              <LinksTab />
            ) : record === NEW_RECORD ? (
              <NewLinkEditor onDone={() => open(list)} />
            ) : (
              <RecordMissing noun="link" section={section} />
            ))}
          {section === "analytics" && <AnalyticsTab />}
          {section === "settings" && <SettingsTab />}
          {section === "pages" && <PagesTab record={record} />}
          {section === "media" && <MediaTab />}
          {section === "backups" && <BackupsTab />}
          {section === "account" && <AccountTab />}
        </Panel>
      </main>
    </>
  );
}

/** A ref to focus once `key` is set, when the last click inside the dashboard asked for `place`. */
function useFocusAfter<E extends HTMLElement>(place: "nav" | "panel", key: string) {
  const ref = useRef<E>(null);
  useEffect(() => {
    if (focusNext !== place || !key) return;
    focusNext = null;
    ref.current?.focus();
  }, [place, key]);
  return ref;
}

/**
 * The sections as links, the current one marked. On a phone they are one row that scrolls
 * sideways (all of them wrapped would fill the first screen), with the current one in view.
 */
function AdminNav({ current }: { current: AdminSection }) {
  const currentLink = useFocusAfter<HTMLAnchorElement>("nav", current);
  useEffect(() => {
    // Only the row scrolls: "nearest" leaves the page where it is when the link is on screen.
    currentLink.current?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
  }, [currentLink]);
  return (
    <nav aria-label="Admin sections" className="admin-nav">
      <ul>
        {ADMIN_SECTIONS.map(({ id, label }) => (
          <li key={id}>
            <Link
              href={adminPath(id)}
              ref={id === current ? currentLink : undefined}
              aria-current={id === current ? "page" : undefined}
              onClick={() => {
                focusNext = "nav";
              }}
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The section's content; focused when an editor or a list was opened from inside the dashboard. */
function Panel({ at, children }: { at: string; children: ReactNode }) {
  const panel = useFocusAfter<HTMLDivElement>("panel", at);
  return (
    <div ref={panel} className="admin-panel" tabIndex={-1}>
      {children}
    </div>
  );
}

interface ByIdEditorProps<Data, T extends { id: number }> {
  /** The id from the address, or NEW_RECORD. */
  record: string;
  /**
   * The record's query, for an id as the address writes it: its own route (a 404 when there is
   * none), or its admin list with the record selected (null when it is not there).
   */
  load: (id: string) => Pick<UseQueryOptions<Data, Error, T | null>, "queryKey" | "queryFn" | "select">;
  noun: string;
  /** The section whose list a missing record leads back to. */
  section: AdminSection;
  edit: (item: T | null) => ReactNode;
}

/** A record's query from its admin list: the list, with the record selected (null when it is not there). */
function fromList<T extends { id: number }>(
  list: Pick<UseQueryOptions<T[], Error>, "queryKey" | "queryFn">,
  id: string,
) {
  return { ...list, select: (items: T[]) => items.find((item) => String(item.id) === id) ?? null };
}

/** Record ids in an address: whole numbers, as the admin routes take them. */
const RECORD_ID = /^\d{1,9}$/;

/** An editor opened by its address: a new record, or one loaded by its id. */
function ByIdEditor<Data, T extends { id: number }>({ record, load, noun, section, edit }: ByIdEditorProps<Data, T>) {
  const isNew = record === NEW_RECORD;
  const known = RECORD_ID.test(record);
  const item = useQuery({ ...load(record), retry: retryQuery(2), enabled: known });
  if (isNew) return edit(null);
  if (!known) return <RecordMissing noun={noun} section={section} />;
  if (item.isPending) return <Loading text={`Loading the ${noun}...`} />;
  if (item.isError) {
    // Asked by id and answered 404: deleted meanwhile, or never made.
    if (item.error instanceof ApiError && item.error.status === 404)
      return <RecordMissing noun={noun} section={section} gone />;
    return (
      <div role="alert">
        <p>
          Could not load the {noun}: {item.error.message}
        </p>
        <button type="button" onClick={() => void item.refetch()}>
          Try Again
        </button>
      </div>
    );
  }
  return item.data ? edit(item.data) : <RecordMissing noun={noun} section={section} />;
}

/** A record's address that leads to none; `gone` when the server said it has no such record. */
function RecordMissing({ noun, section, gone = false }: { noun: string; section: AdminSection; gone?: boolean }) {
  return (
    <div role="alert" className="admin-missing">
      <h2>Not found</h2>
      <p>
        {gone
          ? `This ${noun} no longer exists: it may have been deleted.`
          : `There is no ${noun} at this address. It may have been deleted.`}
      </p>
      <Link href={adminPath(section)}>Back to {sectionLabel(section)}</Link>
    </div>
  );
}
