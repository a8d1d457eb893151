import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useLocation } from "wouter";
import type { BlogPost } from "#shared/features/blog/contract.ts";
import type { AdminOffer } from "#shared/features/offers/contract.ts";
import { clearAdminFlag, hasAdminFlag } from "#web/features/auth/admin-session.ts";
import { CategoriesTab } from "#web/features/blog/admin-categories.tsx";
import { PostEditor, PostsTab } from "#web/features/blog/admin-posts.tsx";
import { OfferEditor, OffersTab } from "#web/features/offers/admin-offers.tsx";
import { ProductsTab } from "#web/features/products/admin-products.tsx";
import { SettingsTab } from "#web/features/settings/admin-settings.tsx";
import { api } from "#web/lib/query-client.ts";
import { toast } from "#web/stores/toast.ts";
import { Loading } from "#web/ui/error-state.tsx";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { ADMIN_API, useMe } from "./admin-api.ts";

export type Tab = "posts" | "post-editor" | "categories" | "offers" | "offer-editor" | "products" | "settings";

/** /admin: the dashboard (docs/product.md#admin-dashboard). */
export default function AdminPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  // The flag lives in this browser; read after hydration so the server's HTML matches.
  const [flag, setFlag] = useState<boolean | null>(null);
  useEffect(() => setFlag(hasAdminFlag()), []);
  const me = useMe(flag ?? false);
  const isAdmin = me.data?.isAdmin === true;

  const [tab, setTab] = useState<Tab>("posts");
  const [editingPost, setEditingPost] = useState<BlogPost | null>(null);
  const [editingOffer, setEditingOffer] = useState<AdminOffer | null>(null);

  useEffect(() => {
    if (flag === null || me.isPending || me.isFetching) return;
    // Without the server's yes and without the local flag, go to the login page.
    if (!isAdmin) {
      if (flag) clearAdminFlag();
      navigate("/admin-login", { replace: true });
    }
  }, [flag, isAdmin, me.isPending, me.isFetching, navigate]);

  async function signOut() {
    try {
      await api("POST", ADMIN_API.logout, { json: {} });
    } finally {
      clearAdminFlag();
      queryClient.clear();
      toast({ title: "Success", description: "Logged out successfully" });
      // Back to the login page after about half a second.
      setTimeout(() => navigate("/admin-login"), 500);
    }
  }

  const meta = <PageMeta title="Admin Dashboard" description="Manage the site's content." noindex />;
  if (!isAdmin) {
    return (
      <>
        {meta}
        <Loading text="Checking your session..." />
      </>
    );
  }

  const tabs: [Tab, string][] = [
    ["posts", "Blog Posts"],
    ["post-editor", editingPost ? "Edit Post" : "New Post"],
    ["categories", "Categories"],
    ["offers", "Affiliate Offers"],
    ["offer-editor", editingOffer ? "Edit Offer" : "New Offer"],
    ["products", "Recommended Products"],
    ["settings", "Settings"],
  ];
  const open = (next: Tab) => {
    if (next === "post-editor" && tab !== "post-editor") setEditingPost(null);
    if (next === "offer-editor" && tab !== "offer-editor") setEditingOffer(null);
    setTab(next);
  };

  return (
    <section className="admin">
      {meta}
      <header className="admin-header">
        <h1>Admin Dashboard</h1>
        <button type="button" className="secondary outline" onClick={() => void signOut()}>
          Sign Out
        </button>
      </header>
      <div role="tablist" aria-label="Admin sections" className="admin-tabs">
        {tabs.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-selected={tab === id}
            aria-controls="admin-panel"
            className={tab === id ? "tab active" : "tab"}
            onClick={() => open(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="admin-panel" aria-labelledby={`tab-${tab}`} className="admin-panel">
        {tab === "posts" && (
          <PostsTab
            onEdit={(post) => {
              setEditingPost(post);
              setTab("post-editor");
            }}
            onNew={() => open("post-editor")}
          />
        )}
        {tab === "post-editor" && (
          <PostEditor key={editingPost?.id ?? "new"} post={editingPost} onDone={() => setTab("posts")} />
        )}
        {tab === "categories" && <CategoriesTab />}
        {tab === "offers" && (
          <OffersTab
            onEdit={(offer) => {
              setEditingOffer(offer);
              setTab("offer-editor");
            }}
            onNew={() => open("offer-editor")}
          />
        )}
        {tab === "offer-editor" && (
          <OfferEditor key={editingOffer?.id ?? "new"} offer={editingOffer} onDone={() => setTab("offers")} />
        )}
        {tab === "products" && <ProductsTab />}
        {tab === "settings" && <SettingsTab />}
      </div>
    </section>
  );
}
