import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { BlogRedirect } from "#shared/features/blog/contract.ts";
import { redirectSource, redirectTarget } from "#shared/features/blog/redirects.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { DeleteDialog } from "#web/admin/admin-table.tsx";
import { adminDateTime } from "#web/admin/date-time.ts";

/**
 * The old addresses of posts (or categories) that forward to their new ones, each with a
 * Delete: shown only once there is one. Deleting one makes the old address find nothing again.
 */
export function RedirectsList({ kind }: { kind: BlogRedirect["kind"] }) {
  const redirects = useQuery(adminQuery(adminApi.blog.redirects));
  const [deleting, setDeleting] = useState<BlogRedirect | null>(null);
  const remove = useAdminChange((id: number) => at(adminApi.blog.redirect, { id }).delete());
  const headingId = useId();
  const rows = redirects.data?.filter((r) => r.kind === kind) ?? [];
  if (rows.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="redirects">
      <h2 id={headingId}>Old addresses</h2>
      <p>
        {kind === "post" ? "A published post whose slug changed" : "A renamed or deleted category"} keeps its old
        address: visitors and search engines that use it are sent on, for good.
      </p>
      <ul className="category-list">
        {rows.map((r) => (
          <li key={r.id}>
            <span>
              <code>{redirectSource(r)}</code> → <code>{redirectTarget(r)}</code>{" "}
              <small>since {adminDateTime(r.createdAt)}</small>
            </span>
            <button type="button" className="danger outline small-button" onClick={() => setDeleting(r)}>
              Delete<span className="visually-hidden"> the redirect from {redirectSource(r)}</span>
            </button>
          </li>
        ))}
      </ul>
      <DeleteDialog
        item={deleting}
        title="Delete Redirect"
        message={(r) =>
          `Stop forwarding ${redirectSource(r)} to ${redirectTarget(r)}? Links and search results that still use the old address will ${r.kind === "post" ? "land on the blog's list instead" : "find the blog's list filtered by a category that no longer exists, with no articles"}.`
        }
        remove={remove}
        success={{ title: "Success", description: "Redirect deleted" }}
        failure={{ title: "Error", description: "Failed to delete redirect." }}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
