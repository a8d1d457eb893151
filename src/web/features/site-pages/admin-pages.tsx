import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { type AdminSitePage, NewSitePageInput, SitePageInput } from "#shared/features/site-pages/contract.ts";
import { declaredFields } from "#shared/schema/declared-fields.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { adminPath } from "#web/admin/admin-sections.ts";
import { AdminTable, DeleteRecordDialog } from "#web/admin/admin-table.tsx";
import { ConfirmDialog } from "#web/admin/confirm-dialog.tsx";
import { Check, TextField } from "#web/admin/field.tsx";
import { RowActions } from "#web/admin/row-actions.tsx";
import { FormEnd, saveForm, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { MarkdownEditor } from "#web/features/editor/markdown-editor.tsx";
import { retryQuery } from "#web/lib/query-client.ts";
import { toast } from "#web/stores/toast.ts";
import { Loading } from "#web/ui/error-state.tsx";

const lastUpdate = (iso: string) =>
  new Date(iso).toLocaleDateString("en", { year: "numeric", month: "short", day: "numeric" });

/**
 * /admin/pages, /admin/pages/new and /admin/pages/:slug: the built-in legal pages (terms,
 * privacy) and the pages the admin adds (About, Contact…), written in the editor.
 */
export function PagesTab({ record }: { record?: string }) {
  if (record === undefined) return <PagesList />;
  return record === "new" ? <PageEditor page={null} /> : <PageLoader slug={record} />;
}

function PagesList() {
  const [, navigate] = useLocation();
  const pages = useQuery({ ...adminQuery(adminApi["site-pages"]), retry: retryQuery(2) });
  const [resetting, setResetting] = useState<AdminSitePage | null>(null);
  const reset = useAdminChange((slug: string) => at(adminApi["site-page"], { slug }).reset.post());
  const [deleting, setDeleting] = useState<(AdminSitePage & { id: string }) | null>(null);
  const remove = useAdminChange((slug: string) => at(adminApi["site-page"], { slug }).delete());
  if (pages.isPending) return <Loading text="Loading the pages..." />;
  if (pages.isError) return <p role="alert">Error loading the pages: {pages.error.message}</p>;
  return (
    <>
      <p className="muted">
        The site's legal pages, linked from every page's footer: each one's text is yours once you save it, and can go
        back to the text the site shipped with. Add your own pages (About, Contact…) at addresses of their own.
      </p>
      <p>
        <Link href={adminPath("pages", "new")} role="button">
          New page
        </Link>
      </p>
      <AdminTable
        rows={pages.data.map((page) => ({ ...page, id: page.slug }))}
        name={(page) => page.title}
        onEdit={(page) => navigate(adminPath("pages", page.slug))}
        actions={(page) => (
          <>
            <RowActions
              name={page.title}
              view={`/${page.slug}`}
              onEdit={() => navigate(adminPath("pages", page.slug))}
              onDelete={page.builtIn ? undefined : () => setDeleting(page)}
            />
            {page.builtIn && (
              <button type="button" className="secondary outline small-button" onClick={() => setResetting(page)}>
                Reset to shipped text<span className="visually-hidden"> of {page.title}</span>
              </button>
            )}
          </>
        )}
        columns={[
          { header: "Title", cell: (page) => page.title },
          { header: "Address", cell: (page) => `/${page.slug}` },
          { header: "Footer link", cell: (page) => (page.builtIn || page.inFooter ? "Yes" : "No") },
          { header: "Last updated", cell: (page) => lastUpdate(page.updatedAt) },
        ]}
      />
      <ConfirmDialog
        open={resetting !== null}
        title="Reset to the shipped text"
        message={
          resetting
            ? `"${resetting.title}" goes back to the text the site shipped with; your changes to it are lost. Later releases then keep it up to date.`
            : ""
        }
        confirmLabel="Reset"
        busy={reset.isPending}
        onCancel={() => setResetting(null)}
        onConfirm={() =>
          reset.mutate(resetting!.slug, {
            onSuccess: () => toast({ title: "Success", description: "Page reset to the shipped text" }),
            onError: () =>
              toast({
                title: "Error",
                description: "Failed to reset the page. Please try again.",
                variant: "destructive",
              }),
            onSettled: () => setResetting(null),
          })
        }
      />
      <DeleteRecordDialog noun="page" item={deleting} remove={remove} onClose={() => setDeleting(null)} />
    </>
  );
}

function PageLoader({ slug }: { slug: string }) {
  const page = useQuery({ ...adminQuery(at(adminApi["site-page"], { slug })), retry: retryQuery(1) });
  if (page.isPending) return <Loading text="Loading the page..." />;
  if (page.isError) {
    return (
      <div role="alert" className="admin-missing">
        <h2>Not found</h2>
        <p>There is no page at this address.</p>
        <Link href={adminPath("pages")}>Back to Pages</Link>
      </div>
    );
  }
  return <PageEditor key={page.data.slug} page={page.data} />;
}

const NEW_PAGE: NewSitePageInput = { slug: "", title: "", description: "", bodyMarkdown: "", inFooter: true };

/** The editor of one page; `null` makes a new one, whose address is chosen here once. */
function PageEditor({ page }: { page: AdminSitePage | null }) {
  const [, navigate] = useLocation();
  const done = () => navigate(adminPath("pages"));
  const editor = useAdminForm({
    schema: NewSitePageInput,
    initial: page ? { ...declaredFields(SitePageInput, page), slug: page.slug } : NEW_PAGE,
  });
  const { bind } = editor;
  const save = useAdminChange(({ slug, ...input }: NewSitePageInput) =>
    page ? at(adminApi["site-page"], { slug: page.slug }).put(input) : adminApi["site-pages"].post({ slug, ...input }),
  );
  const send = (body: NewSitePageInput, value: NewSitePageInput) =>
    saveForm(editor, save, body, value, {
      saved: page ? "Page saved" : "Page created",
      failed: "Failed to save the page. Please try again.",
      done,
    });

  return (
    <form {...editor.formProps(send)} className="admin-form">
      <h2>{page ? `Edit Page: /${page.slug}` : "New Page"}</h2>
      {page ? (
        <p className="muted">Last updated {lastUpdate(page.updatedAt)}.</p>
      ) : (
        <TextField
          label="Address (after the site's address and a slash, such as about-us)"
          autoComplete="off"
          {...bind("slug")}
        />
      )}
      <TextField label="Title" {...bind("title")} />
      <TextField label="Description (shown in search results)" rows={2} {...bind("description")} />
      <MarkdownEditor
        label="Text"
        {...bind("bodyMarkdown")}
        hint="{{brand}} shows as the site's brand name, {{contact}} as its address, {{operatorContact}} as a sentence naming you and your contact address (both from Settings) and {{resultRetention}} as how long saved results are kept (such as 180 days, from Settings)."
      />
      {!page?.builtIn && (
        <Check label="Link to it in every page's footer" {...bind("inFooter")} value={Boolean(editor.form.inFooter)} />
      )}
      <FormEnd editor={editor} save={save} onCancel={done} submit={page ? "Save Page" : "Create Page"} />
    </form>
  );
}
