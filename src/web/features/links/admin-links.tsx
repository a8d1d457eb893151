import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Link, useSearch } from "wouter";
import { GO_PREFIX, placementLabel } from "#shared/features/links/constants.ts";
import {
  type AdminLink,
  type AdminLinkWithClicks,
  AUTO_FALLBACK_MAX,
  type LinkClicks,
  LinkCreate,
  LinkUpdate,
} from "#shared/features/links/contract.ts";
import { type HealthFilter, needsAttention, readHealthFilter } from "#shared/features/links/health.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { adminPath, NEW_RECORD } from "#web/admin/admin-sections.ts";
import { AdminTable } from "#web/admin/admin-table.tsx";
import { EditorDialog } from "#web/admin/editor-dialog.tsx";
import { Check, Field, NumberField, TextField } from "#web/admin/field.tsx";
import { type AdminForm, FormEnd, saveForm, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { serverFieldErrors } from "#web/lib/query-client.ts";
import { toast, toastError } from "#web/stores/toast.ts";
import { CopyLink } from "./copy-link.tsx";
import { DeleteLinkDialog } from "./delete-link.tsx";
import { CheckAllLinks, deactivateLabel, HealthBadge, LinkHealthPanel, OfflineHint } from "./link-health.tsx";

/** A link's editable fields as its form holds them: what it sends, empty text for none. */
type LinkForm = { [K in Exclude<keyof LinkUpdate, "autoFallbackAfter">]-?: NonNullable<LinkUpdate[K]> };

const formOf = (link: AdminLink): LinkForm => ({
  destination: link.destination,
  active: link.active,
  fallbackDestination: link.fallbackDestination ?? "",
  notes: link.notes ?? "",
});

/** The editor's value: the number of failed checks as typed (empty: never). */
type EditorForm = LinkForm & { autoFallbackAfter: string };

/** The number of failed checks as the server reads it: empty is never, digits a number, anything else refused. */
const failuresBody = (typed: string) => {
  const text = typed.trim();
  return text === "" ? null : /^\d+$/.test(text) ? Number(text) : text;
};

const editorBody = ({ autoFallbackAfter, ...rest }: EditorForm) => ({
  ...rest,
  autoFallbackAfter: failuresBody(autoFallbackAfter),
});

const FAILURES_LABEL = `Use the fallback after this many failed checks in a row (1 to ${AUTO_FALLBACK_MAX}; empty: never)`;

/** The fields a link's editor and the new-link form share: where it leads, on or off, its fallback, notes. */
function LinkFields({
  form,
  set,
  error,
  bind,
  destinationPlaceholder,
}: {
  form: EditorForm;
  set: (key: "destination" | "autoFallbackAfter", value: string) => void;
  error: (key: keyof EditorForm) => string | undefined;
  bind: AdminForm<EditorForm, unknown>["bind"];
  destinationPlaceholder?: string;
}) {
  return (
    <>
      <Field label="Destination" error={error("destination")}>
        {(props) => (
          <input
            {...props}
            type="url"
            placeholder={destinationPlaceholder}
            value={form.destination}
            onChange={(e) => set("destination", e.target.value)}
          />
        )}
      </Field>
      <Check label="Active (clicks go to the destination)" {...bind("active")} />
      <TextField label="Fallback destination (optional)" type="url" {...bind("fallbackDestination")} />
      <NumberField
        label={FAILURES_LABEL}
        error={error("autoFallbackAfter")}
        min={1}
        max={AUTO_FALLBACK_MAX}
        value={form.autoFallbackAfter}
        onChange={(text) => set("autoFallbackAfter", text)}
      />
      <TextField label="Notes (optional)" rows={2} {...bind("notes")} />
    </>
  );
}

/**
 * The site's public origin (Settings), else the address the admin is at: a link's absolute
 * address. `confirmed` is false when the site's public address is not set (only a sign-in's
 * address, or none, is known): the copied address may then not be the one visitors use.
 */
function usePublicOrigin(): { origin: string; confirmed: boolean } {
  const address = useQuery({ ...adminQuery(adminApi.settings.address), staleTime: 60_000 });
  const source = address.data?.source;
  return {
    origin: address.data?.origin ?? (typeof window === "undefined" ? "" : window.location.origin),
    confirmed: source === "confirmed" || source === "environment",
  };
}

/** The list's search: slug, destination and notes contain every word typed (any case), and the health filter. */
function matches(link: AdminLink, words: string[], health: HealthFilter): boolean {
  if (health === "attention" && !needsAttention(link)) return false;
  if (health === "unchecked" && link.healthClass !== null) return false;
  const text = `${link.slug} ${link.destination} ${link.notes ?? ""}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

/** Clicks in the last 7 and 30 days, with a per-placement breakdown that opens without script. */
function ClicksCell({ clicks }: { clicks: LinkClicks }) {
  return (
    <div className="link-clicks">
      <span>
        <strong>{clicks.days7}</strong> <small className="muted">7 days</small> · <strong>{clicks.days30}</strong>{" "}
        <small className="muted">30 days</small>
      </span>
      {clicks.placements.length > 0 && (
        <details>
          <summary>By placement</summary>
          {/* A list, not a table: on a phone the admin list's cells stack, nested tables would too. */}
          <ul className="placement-list">
            {clicks.placements.map((p) => (
              <li key={p.placement}>
                {placementLabel(p.placement)}: <strong>{p.days7}</strong> in 7 days, <strong>{p.days30}</strong> in 30
                days
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

/** The Links section (docs/product.md#managed-links): every managed link, its clicks, copy, edit, turn off or on. */
export function LinksTab() {
  const links = useQuery({ ...adminQuery(adminApi.links), staleTime: 10_000 });
  const { origin, confirmed } = usePublicOrigin();
  const [editing, setEditing] = useState<AdminLink | null>(null);
  const [deleting, setDeleting] = useState<AdminLink | null>(null);
  const [query, setQuery] = useState("");
  // The filter the address names (the admin home links to ?health=attention), else all.
  const search = useSearch();
  const [health, setHealth] = useState<HealthFilter>(
    () => readHealthFilter(new URLSearchParams(search).get("health")) ?? "all",
  );
  const searchId = useId();
  const toggle = useAdminChange(({ id, body }: { id: number; body: LinkForm }) => at(adminApi.link, { id }).put(body));

  const switchState = (link: AdminLink) => {
    const body = { ...formOf(link), active: !link.active };
    toggle.mutate(
      { id: link.id, body },
      {
        onSuccess: () => toast({ title: body.active ? `${link.slug} is on` : `${link.slug} is off` }),
        onError: () => toastError("Failed to change the link. Please try again."),
      },
    );
  };

  return (
    <>
      <div className="toolbar">
        <Link href={adminPath("links", NEW_RECORD)} role="button">
          New link
        </Link>
      </div>
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
        <LinkList
          links={links.data}
          query={query}
          health={health}
          searchId={searchId}
          onQuery={setQuery}
          onHealth={setHealth}
        >
          {(shown) => (
            <AdminTable
              rows={shown}
              name={(link) => link.slug}
              onEdit={setEditing}
              actions={(link) => (
                <>
                  <CopyLink address={`${origin}${GO_PREFIX}${link.slug}`} name={link.slug} unconfirmed={!confirmed} />
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
                  <button type="button" className="danger outline small-button" onClick={() => setDeleting(link)}>
                    Delete<span className="visually-hidden"> {link.slug}</span>
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
                { header: "Clicks", cell: (link) => <ClicksCell clicks={link.clicks} /> },
                { header: "Fallback", cell: (link) => link.fallbackDestination ?? "None", className: "url-cell" },
              ]}
            />
          )}
        </LinkList>
      )}
      {editing && <LinkDialog link={editing} onClose={() => setEditing(null)} />}
      {deleting && <DeleteLinkDialog key={deleting.id} link={deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}

/**
 * Above the list: "Find a link" (slug, destination and notes, any case, as the admin types) and
 * a health filter; says how many links show. The rows shown go to `children`.
 */
function LinkList({
  links,
  query,
  health,
  searchId,
  onQuery,
  onHealth,
  children,
}: {
  links: AdminLinkWithClicks[];
  query: string;
  health: HealthFilter;
  searchId: string;
  onQuery: (query: string) => void;
  onHealth: (health: HealthFilter) => void;
  children: (shown: AdminLinkWithClicks[]) => ReactNode;
}) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = links.filter((link) => matches(link, words, health));
  return (
    <>
      <OfflineHint links={links} />
      <div role="search" className="link-search">
        <div className="field">
          <label htmlFor={`${searchId}-find`}>Find a link</label>
          <input
            id={`${searchId}-find`}
            type="search"
            value={query}
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${searchId}-count`}
            onChange={(e) => onQuery(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${searchId}-health`}>Health</label>
          <select
            id={`${searchId}-health`}
            value={health}
            aria-describedby={`${searchId}-count`}
            onChange={(e) => onHealth(e.target.value as HealthFilter)}
          >
            <option value="all">All</option>
            <option value="attention">Needs attention</option>
            <option value="unchecked">Not checked yet</option>
          </select>
        </div>
        <p id={`${searchId}-count`} className="muted" aria-live="polite">
          {shown.length} of {links.length} links
        </p>
      </div>
      {shown.length === 0 ? <p className="empty-state">No link matches.</p> : children(shown)}
    </>
  );
}

function LinkDialog({ link, onClose }: { link: AdminLink; onClose: () => void }) {
  const editor = useAdminForm({
    initial: { ...formOf(link), autoFallbackAfter: link.autoFallbackAfter?.toString() ?? "" },
    schema: LinkUpdate,
    body: editorBody,
  });
  const { form, set, error } = editor;
  const save = useAdminChange((body: LinkUpdate) => at(adminApi.link, { id: link.id }).put(body));

  const send = (body: LinkUpdate, value: EditorForm) =>
    saveForm(editor, save, body, value, {
      saved: { title: "Link updated" },
      failed: "Failed to update the link. Please try again.",
      done: onClose,
    });

  return (
    <EditorDialog name="link" editor={editor} onClose={onClose}>
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
        <LinkFields form={form} set={set} error={error} bind={editor.bind} />
        <FormEnd editor={editor} save={save} onCancel={onClose} submit="Update Link" />
      </form>
    </EditorDialog>
  );
}

/** The new-link form: a link's editor plus the slug it is made with. */
type NewLinkForm = EditorForm & { slug: string };

const NEW_LINK_FORM: NewLinkForm = {
  slug: "",
  destination: "",
  active: true,
  fallbackDestination: "",
  notes: "",
  autoFallbackAfter: "",
};

/** /admin/links/new: a link made by hand (a slug, a destination, an optional fallback, failed checks and notes). */
export function NewLinkEditor({ onDone }: { onDone: () => void }) {
  const editor = useAdminForm({
    initial: NEW_LINK_FORM,
    schema: LinkCreate,
    body: (form: NewLinkForm) => ({
      ...form,
      slug: form.slug.trim(),
      destination: form.destination.trim(),
      autoFallbackAfter: failuresBody(form.autoFallbackAfter),
    }),
  });
  const { form, set, error } = editor;
  const save = useAdminChange((body: LinkCreate) => adminApi.link.post(body));
  const slugInput = useRef<HTMLInputElement>(null);
  const slugHint = useId();
  // The page is this form: its first field has the focus when it opens.
  useEffect(() => slugInput.current?.focus(), []);

  const send = (body: LinkCreate, value: NewLinkForm) =>
    save.mutate(body, {
      onSuccess: () => {
        editor.accepted(value);
        toast({ title: "Link created" });
        onDone();
      },
      onError: (failure) => {
        editor.refused(failure, body);
        // A refused field says why at the field (and has the focus): the toast only points there.
        const atField = Object.keys(serverFieldErrors(failure)).length > 0;
        toast(
          atField
            ? { title: "Not created", description: "Check the highlighted field.", variant: "destructive" }
            : { title: "Error", description: "Failed to create the link. Please try again.", variant: "destructive" },
        );
      },
    });

  return (
    <form {...editor.formProps(send)} className="admin-form">
      <h2>New Link</h2>
      <Field label="Slug" error={error("slug")}>
        {(props) => (
          <input
            {...props}
            ref={slugInput}
            aria-describedby={[props["aria-describedby"], slugHint].filter(Boolean).join(" ")}
            value={form.slug}
            autoCapitalize="none"
            spellCheck={false}
            placeholder="join-platform"
            onChange={(e) => set("slug", e.target.value)}
          />
        )}
      </Field>
      <small className="hint" id={slugHint}>
        The short name in the address <code>{GO_PREFIX}&lt;slug&gt;</code>: lower-case letters, digits and hyphens (such
        as join-platform). It cannot change later.
      </small>
      <LinkFields form={form} set={set} error={error} bind={editor.bind} destinationPlaceholder="https://" />
      <FormEnd editor={editor} save={save} onCancel={onDone} submit="Create Link" />
    </form>
  );
}
