import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { PRODUCT_ARCHETYPES, PRODUCT_BADGES, RecommendedProduct } from "#shared/features/products/contract.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { DeleteDialog } from "#web/admin/admin-table.tsx";
import { EditorDialog } from "#web/admin/editor-dialog.tsx";
import { Check, Field, TextField } from "#web/admin/field.tsx";
import { RowActions } from "#web/admin/row-actions.tsx";
import { FormEnd, saveForm, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { type LinkPick, LinkPicker, linkPickOf, pickErrors } from "#web/features/links/link-picker.tsx";
import { ImageUploader } from "#web/features/media/uploaders.tsx";
import { newProductId } from "#web/lib/slug.ts";

type Product = RecommendedProduct;

/** An id holds no spaces: "Girl Next Door" is group-girl-next-door. */
function groupId(archetype: string): string {
  return `group-${archetype.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
}

export function ProductsTab() {
  // The product list is stale after 10 s.
  const products = useQuery({ ...adminQuery(adminApi["recommended-products"]), staleTime: 10_000 });
  const [editing, setEditing] = useState<Product | "new" | null>(null);
  const [deleting, setDeleting] = useState<Product | null>(null);
  const remove = useAdminChange((id: string) => at(adminApi["recommended-product"], { id }).delete());

  const groups = PRODUCT_ARCHETYPES.map((archetype) => ({
    archetype,
    items: (products.data ?? []).filter((p) => p.archetype === archetype),
  })).filter((g) => g.items.length);

  return (
    <>
      <div className="toolbar">
        <button type="button" onClick={() => setEditing("new")}>
          Add Product
        </button>
      </div>
      {products.isPending ? (
        <p aria-busy="true">Loading products...</p>
      ) : products.isError ? (
        <p role="alert">Error loading products. Please try again.</p>
      ) : groups.length === 0 ? (
        <p className="empty-state">No products found. Add your first product to get started.</p>
      ) : (
        groups.map(({ archetype, items }) => (
          <section key={archetype} className="product-group" aria-labelledby={groupId(archetype)}>
            <h2 id={groupId(archetype)}>
              {archetype} <span className="count-badge">{items.length}</span>
            </h2>
            <p className="muted">Products recommended for the {archetype} archetype</p>
            <ul className="admin-products">
              {items.map((p) => (
                <li key={p.id}>
                  <article className="admin-product">
                    {p.imageUrl ? (
                      <img src={p.imageUrl} alt="" />
                    ) : (
                      <div className="product-image placeholder" aria-hidden="true">
                        🛍️
                      </div>
                    )}
                    <h3>{p.name}</h3>
                    <p>
                      <span className="badge badge-primary">{p.badge}</span>{" "}
                      {p.isDefault && <span className="badge badge-accent">Default</span>}
                    </p>
                    <p className="clamp-2">{p.description}</p>
                    <p className="product-price">{p.price}</p>
                    <p className="actions">
                      <a href={p.link} target="_blank" rel="noopener noreferrer">
                        Visit Link<span className="visually-hidden"> for {p.name} (opens in a new tab)</span>
                      </a>
                      <RowActions name={p.name} onEdit={() => setEditing(p)} onDelete={() => setDeleting(p)} />
                    </p>
                  </article>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
      {editing && <ProductDialog product={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      <DeleteDialog
        item={deleting}
        title="Delete product"
        message={() => "Are you sure you want to delete this product?"}
        remove={remove}
        success={{ title: "Product deleted" }}
        failure={{ title: "Error", description: "Failed to delete product. Please try again." }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

function ProductDialog({ product, onClose }: { product: Product | null; onClose: () => void }) {
  const editor = useAdminForm<typeof RecommendedProduct, Product & LinkPick>({
    initial: product
      ? { ...product, ...linkPickOf(product.linkSlug) }
      : {
          ...linkPickOf(null),
          id: newProductId(),
          name: "",
          description: "",
          link: "",
          price: "",
          imageUrl: null,
          badge: "ESSENTIAL",
          archetype: "All Archetypes",
          isDefault: false,
          moduleId: null,
        },
    schema: RecommendedProduct,
  });
  const { form, set, setForm, error, bind } = editor;
  const save = useAdminChange((body: Product) =>
    product
      ? at(adminApi["recommended-product"], { id: product.id }).put(body)
      : adminApi["recommended-product"].post(body),
  );

  const send = (body: Product & LinkPick, value: Product & LinkPick) =>
    saveForm(editor, save, body, value, {
      saved: { title: product ? "Product updated" : "Product added" },
      failed: product ? "Failed to update product. Please try again." : "Failed to add product. Please try again.",
      done: onClose,
    });

  return (
    <EditorDialog name="product" editor={editor} onClose={onClose}>
      <h2 id="product-dialog-title">{product ? "Edit Product" : "Add New Product"}</h2>
      <p id="product-dialog-description">Fill in the details for the recommended product.</p>
      <form {...editor.formProps(send)} className="admin-form">
        <TextField label="Name" {...bind("name")} />
        <TextField label="Description" rows={3} {...bind("description")} />
        <LinkPicker
          value={form}
          onChange={(pick, link) => setForm((f) => ({ ...f, ...pick, link }))}
          errors={pickErrors(form, error, "link")}
        />
        <TextField label="Price" {...bind("price")} />
        <ImageUploader label="Image (optional)" {...bind("imageUrl")} />
        <Field label="Badge" error={error("badge")}>
          {(props) => (
            <select {...props} value={form.badge} onChange={(e) => set("badge", e.target.value)}>
              {PRODUCT_BADGES.map((b) => (
                <option key={b}>{b}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Archetype" error={error("archetype")}>
          {(props) => (
            <select
              {...props}
              value={form.archetype}
              onChange={(e) => set("archetype", e.target.value as Product["archetype"])}
            >
              {PRODUCT_ARCHETYPES.map((a) => (
                <option key={a}>{a}</option>
              ))}
            </select>
          )}
        </Field>
        <Check label="Featured (default) for this archetype" {...bind("isDefault")} />
        <FormEnd editor={editor} save={save} onCancel={onClose} submit={product ? "Update Product" : "Add Product"} />
      </form>
    </EditorDialog>
  );
}
