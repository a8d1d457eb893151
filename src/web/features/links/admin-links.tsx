import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { GO_PREFIX } from "#shared/features/links/constants.ts";
import { type AdminLink, AUTO_FALLBACK_MAX, LinkUpdate } from "#shared/features/links/contract.ts";
import { ADMIN_API, useAdminMutation } from "#web/admin/admin-api.ts";
import { AdminTable } from "#web/admin/admin-table.tsx";
import { Check, Field } from "#web/admin/field.tsx";
import { FormEnd, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { api } from "#web/lib/query-client.ts";
import { toast } from "#web/stores/toast.ts";
import { CheckAllLinks, deactivateLabel, HealthBadge, LinkHealthPanel } from "./link-health.tsx";

interface LinkForm {
  destination: string;
  active: boolean;
  fallbackDestination: string;
  notes: string;
}

const formOf = (link: AdminLink): LinkForm => ({
  destination: link.destination,
  active: link.active,
  fallbackDestination: link.fallbackDestination ?? "",
  notes: link.notes ?? "",
});

/** The editor's value: the number of failed checks as typed (empty: never). */
type EditorForm = LinkForm & { autoFallbackAfter: string };

const editorBody = ({ autoFallbackAfter, ...rest }: EditorForm) => {
  const text = autoFallbackAfter.trim();
  return { ...rest, autoFallbackAfter: text === "" ? null : /^\d+$/.test(text) ? Number(text) : text };
};

/** The Links section (docs/product.md#managed-links): every managed link, edit, turn off or on. */
export function LinksTab() {
  const links = useQuery<AdminLink[]>({ queryKey: [ADMIN_API.links], staleTime: 10_000 });
  const [editing, setEditing] = useState<AdminLink | null>(null);
  const queryClient = useQueryClient();
  const toggle = useMutation<unknown, Error, { id: number; body: LinkForm }>({
    mutationFn: ({ id, body }) => api("PUT", ADMIN_API.link(id), { json: body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_API.links] }),
  });

  const switchState = (link: AdminLink) => {
    const body = { ...formOf(link), active: !link.active };
    toggle.mutate(
      { id: link.id, body },
      {
        onSuccess: () => toast({ title: body.active ? `${link.slug} is on` : `${link.slug} is off` }),
        onError: () =>
          toast({
            title: "Error",
            description: "Failed to change the link. Please try again.",
            variant: "destructive",
          }),
      },
    );
  };

  return (
    <>
      <p className="muted">
        Every affiliate link on the site goes through one of these addresses. A link that is off sends visitors to its
        fallback, or back to the page they clicked it on.
      </p>
      <CheckAllLinks />
      {links.isPending ? (
        <p aria-busy="true">Loading links...</p>
      ) : links.isError ? (
        <p role="alert">Error loading links. Please try again.</p>
      ) : links.data.length === 0 ? (
        <p className="empty-state">No links yet: each platform, offer and product gets one when it is saved.</p>
      ) : (
        <AdminTable
          rows={links.data}
          name={(link) => link.slug}
          onEdit={setEditing}
          actions={(link) => (
            <>
              <button type="button" className="secondary outline small-button" onClick={() => setEditing(link)}>
                Edit<span className="visually-hidden"> {link.slug}</span>
              </button>
              <button
                type="button"
                className={`${link.active ? "danger " : ""}outline small-button`}
                disabled={toggle.isPending}
                onClick={() => switchState(link)}
              >
                {deactivateLabel(link)}
                <span className="visually-hidden"> {link.slug}</span>
              </button>
            </>
          )}
          columns={[
            {
              header: "Link",
              cell: (link) => (
                <>
                  <code>
                    {GO_PREFIX}
                    {link.slug}
                  </code>
                  {link.notes && <small className="muted"> {link.notes}</small>}
                </>
              ),
            },
            { header: "Destination", cell: (link) => link.destination, className: "url-cell" },
            { header: "Status", cell: (link) => (link.active ? "Active" : "Inactive") },
            { header: "Health", cell: (link) => <HealthBadge link={link} /> },
            { header: "Fallback", cell: (link) => link.fallbackDestination ?? "None", className: "url-cell" },
          ]}
        />
      )}
      {editing && <LinkDialog link={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

function LinkDialog({ link, onClose }: { link: AdminLink; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => ref.current?.showModal?.(), []);
  const editor = useAdminForm<EditorForm>({
    initial: { ...formOf(link), autoFallbackAfter: link.autoFallbackAfter?.toString() ?? "" },
    schema: LinkUpdate,
    body: editorBody,
  });
  const { form, set, error } = editor;
  const save = useAdminMutation<unknown>("PUT", () => ADMIN_API.link(link.id), [[ADMIN_API.links]]);

  const send = (body: unknown, value: EditorForm) =>
    save.mutate(body, {
      onSuccess: () => {
        editor.accepted(value);
        toast({ title: "Link updated" });
        onClose();
      },
      onError: (failure) => {
        editor.refused(failure, body);
        toast({ title: "Error", description: "Failed to update the link. Please try again.", variant: "destructive" });
      },
    });

  return (
    <dialog
      ref={ref}
      aria-labelledby="link-dialog-title"
      aria-describedby="link-dialog-description"
      onCancel={(event) => {
        event.preventDefault();
        editor.leave(onClose);
      }}
    >
      <article>
        <h2 id="link-dialog-title">Edit Link</h2>
        <p id="link-dialog-description">
          Visitors follow{" "}
          <code>
            {GO_PREFIX}
            {link.slug}
          </code>
          ; its address stays, only where it leads changes.
        </p>
        <LinkHealthPanel id={link.id} />
        <form {...editor.formProps(send)} className="admin-form">
          <Field label="Destination" error={error("destination")}>
            {(props) => (
              <input
                {...props}
                type="url"
                value={form.destination}
                onChange={(e) => set("destination", e.target.value)}
              />
            )}
          </Field>
          <Check
            label="Active (clicks go to the destination)"
            checked={form.active}
            onChange={(active) => set("active", active)}
            error={error("active")}
          />
          <Field label="Fallback destination (optional)" error={error("fallbackDestination")}>
            {(props) => (
              <input
                {...props}
                type="url"
                value={form.fallbackDestination}
                onChange={(e) => set("fallbackDestination", e.target.value)}
              />
            )}
          </Field>
          <Field
            label={`Use the fallback after this many failed checks in a row (1 to ${AUTO_FALLBACK_MAX}; empty: never)`}
            error={error("autoFallbackAfter")}
          >
            {(props) => (
              <input
                {...props}
                type="number"
                inputMode="numeric"
                min={1}
                max={AUTO_FALLBACK_MAX}
                value={form.autoFallbackAfter}
                onChange={(e) => set("autoFallbackAfter", e.target.value)}
              />
            )}
          </Field>
          <Field label="Notes (optional)" error={error("notes")}>
            {(props) => (
              <textarea {...props} rows={2} value={form.notes} onChange={(e) => set("notes", e.target.value)} />
            )}
          </Field>
          <FormEnd editor={editor} onCancel={onClose} pending={save.isPending} submit="Update Link" />
        </form>
      </article>
    </dialog>
  );
}
