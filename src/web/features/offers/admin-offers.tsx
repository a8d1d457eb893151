import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { MODULE_IDS } from "#shared/features/course/constants.ts";
import { type AdminOffer, OfferInput } from "#shared/features/offers/contract.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { AdminTable, DeleteRecordDialog, EmptyList } from "#web/admin/admin-table.tsx";
import { Check, Field, TextField } from "#web/admin/field.tsx";
import { FormEnd, saveForm, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { MarkdownEditor } from "#web/features/editor/markdown-editor.tsx";
import { type LinkPick, LinkPicker, linkPickOf, pickErrors } from "#web/features/links/link-picker.tsx";
import { ImageUploader, MediaUploader } from "#web/features/media/uploaders.tsx";
import { retryQuery } from "#web/lib/query-client.ts";

export function OffersTab({ onEdit, onNew }: { onEdit: (offer: AdminOffer) => void; onNew: () => void }) {
  // Polled every 2 s while this tab is open, up to 3 retries.
  const offers = useQuery({
    ...adminQuery(adminApi["affiliate-offers"]),
    refetchInterval: 2000,
    retry: retryQuery(3),
  });
  const [deleting, setDeleting] = useState<AdminOffer | null>(null);
  const remove = useAdminChange((id: number) => at(adminApi["affiliate-offer"], { id }).delete());

  return (
    <>
      <div className="toolbar">
        <button
          type="button"
          className="secondary outline"
          onClick={() => void offers.refetch()}
          disabled={offers.isFetching}
        >
          Refresh
        </button>
        <button type="button" onClick={onNew}>
          New Offer
        </button>
      </div>
      {offers.isPending ? (
        <p aria-busy="true">Loading affiliate offers...</p>
      ) : offers.isError ? (
        <div role="alert">
          <p>Error loading affiliate offers: {offers.error.message}</p>
          <button type="button" onClick={() => void offers.refetch()}>
            Try Again
          </button>
        </div>
      ) : offers.data.length === 0 ? (
        <EmptyList text="No affiliate offers found" action="Create Your First Offer" onAction={onNew} />
      ) : (
        <AdminTable
          rows={offers.data}
          name={(offer) => offer.title}
          onEdit={onEdit}
          onDelete={setDeleting}
          columns={[
            {
              header: "Title",
              cell: (offer) => (
                <>
                  {offer.title} <small className="muted">Module {offer.moduleId}</small>
                </>
              ),
            },
            {
              header: "Link",
              cell: (offer) => (
                <>
                  {offer.linkSlug && <code>/go/{offer.linkSlug}</code>} {offer.linkUrl}
                </>
              ),
              className: "url-cell",
            },
            { header: "Status", cell: (offer) => (offer.isActive ? "Active" : "Inactive") },
          ]}
        />
      )}
      <DeleteRecordDialog item={deleting} noun="affiliate offer" remove={remove} onClose={() => setDeleting(null)} />
    </>
  );
}

/** The offer form's value: what it sends, less the HTML the server makes, with the link picker's fields. */
type OfferForm = Omit<OfferInput, "descriptionHtml" | keyof LinkPick> & LinkPick;

/** A new offer: active in module 1, with an image or a video, and a new link. */
const NEW_OFFER: OfferForm = {
  title: "",
  description: "",
  imageUrl: null,
  videoUrl: null,
  useEmbed: false,
  embedCode: "",
  linkUrl: "",
  ...linkPickOf(null),
  linkText: "",
  moduleId: 1,
  isActive: true,
  archetype: null,
  productId: null,
  badge: null,
  price: null,
};

/** An offer as its form holds it: every field the admin edits, and its link as the picker shows it. */
function formOf(offer: AdminOffer): OfferForm {
  const { id: _id, createdAt: _created, updatedAt: _updated, descriptionHtml: _html, linkSlug, ...fields } = offer;
  return { ...fields, ...linkPickOf(linkSlug) };
}

export function OfferEditor({ offer, onDone }: { offer: AdminOffer | null; onDone: () => void }) {
  const all = useQuery(adminQuery(adminApi["affiliate-offers"]));
  const editor = useAdminForm<typeof OfferInput, OfferForm>({
    schema: OfferInput,
    initial: offer ? formOf(offer) : NEW_OFFER,
  });
  const { form, set, setForm, error, bind } = editor;
  const [mediaKind, setMediaKind] = useState<"image" | "video">(offer?.videoUrl ? "video" : "image");
  const save = useAdminChange((body: OfferInput) =>
    offer ? at(adminApi["affiliate-offer"], { id: offer.id }).put(body) : adminApi["affiliate-offer"].post(body),
  );
  const othersActive = (all.data ?? []).filter(
    (o) => o.moduleId === form.moduleId && o.isActive && o.id !== offer?.id,
  ).length;

  // The media switches (docs/product.md#admin-forms-and-validation).
  const setEmbedMode = (embed: boolean) =>
    setForm((f) =>
      embed ? { ...f, useEmbed: true, imageUrl: null, videoUrl: null } : { ...f, useEmbed: false, embedCode: "" },
    );
  const chooseKind = (kind: "image" | "video") => {
    setMediaKind(kind);
    setForm((f) => (kind === "video" ? { ...f, imageUrl: null, videoUrl: "https://" } : { ...f, videoUrl: null }));
  };

  const send = (body: OfferForm, value: OfferForm) =>
    saveForm(editor, save, body, value, {
      saved: offer ? "Affiliate offer updated successfully" : "Affiliate offer created successfully",
      failed: "Failed to save affiliate offer. Please try again.",
      done: onDone,
    });

  return (
    <form {...editor.formProps(send)} className="admin-form">
      <h2>{offer ? "Edit Offer" : "New Offer"}</h2>
      <TextField label="Title" {...bind("title")} />
      <MarkdownEditor label="Description" tools="basic" rows={5} {...bind("description")} />
      <fieldset className="switch-row">
        <legend>Content type</legend>
        <label>
          <input
            type="checkbox"
            // biome-ignore lint/a11y/useAriaPropsForRole: a native checkbox has its own checked state (no aria-checked on it)
            role="switch"
            checked={form.useEmbed}
            onChange={(e) => setEmbedMode(e.target.checked)}
            {...(error("useEmbed") ? { "aria-invalid": true, "aria-describedby": "offer-content-type-error" } : {})}
          />
          {form.useEmbed ? "Embed Code" : "Media Upload"}
        </label>
        {error("useEmbed") && (
          <small id="offer-content-type-error" className="field-error">
            {error("useEmbed")}
          </small>
        )}
      </fieldset>
      {form.useEmbed ? (
        <TextField label="Embed/HTML Code" rows={6} {...bind("embedCode")} />
      ) : (
        <>
          <fieldset>
            <legend>Media</legend>
            {(["image", "video"] as const).map((kind) => (
              <label key={kind}>
                <input type="radio" name="media-kind" checked={mediaKind === kind} onChange={() => chooseKind(kind)} />{" "}
                {kind === "image" ? "Image" : "Video"}
              </label>
            ))}
          </fieldset>
          {mediaKind === "image" ? (
            <ImageUploader label="Image" {...bind("imageUrl")} />
          ) : (
            <>
              <TextField label="Video URL" type="url" {...bind("videoUrl")} />
              <small className="hint">
                A YouTube regular or embed link, a YouTube Shorts short link, any Vimeo link (converted automatically),
                or a direct MP4 link.
              </small>
              <MediaUploader
                label="Upload Video File"
                accept="video"
                value={null}
                onChange={(url) => set("videoUrl", url)}
              />
            </>
          )}
        </>
      )}
      <LinkPicker
        value={form}
        onChange={(pick, linkUrl) => setForm((f) => ({ ...f, ...pick, linkUrl }))}
        errors={pickErrors(form, error, "linkUrl")}
      />
      <TextField label="Button Text (optional; empty hides the button)" {...bind("linkText")} />
      <Field label="Module ID" error={error("moduleId")}>
        {(props) => (
          <select {...props} value={form.moduleId} onChange={(e) => set("moduleId", Number(e.target.value))}>
            {MODULE_IDS.map((id) => (
              <option key={id} value={id}>
                Module {id}
              </option>
            ))}
          </select>
        )}
      </Field>
      {othersActive > 0 && (
        <p className="hint" role="status">
          Module {form.moduleId} already has {othersActive} other active {othersActive === 1 ? "offer" : "offers"}. A
          module's active offers take turns: each time a visitor opens a page with the module's offer card, it shows one
          of them at random, and "Show different offer" switches to another.
          {!form.isActive && " This offer is inactive, so it is not among them until Active is ticked."}
        </p>
      )}
      <Check label="Active (visible to users)" {...bind("isActive")} />
      <FormEnd editor={editor} save={save} onCancel={onDone} submit={offer ? "Update Offer" : "Create Offer"} />
    </form>
  );
}
