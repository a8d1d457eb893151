import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { type BlogCategory, CategoryInput } from "#shared/features/blog/contract.ts";
import { blogCategoriesRead } from "#shared/features/blog/reads.ts";
import { address } from "#shared/features/blog/redirects.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { DeleteDialog } from "#web/admin/admin-table.tsx";
import { TextField } from "#web/admin/field.tsx";
import { FormEnd, saveForm, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { useRead } from "#web/lib/reads.ts";
import { slugify } from "#web/lib/slug.ts";
import { RedirectsList } from "./admin-redirects.tsx";

const EMPTY = { name: "", slug: "" };

const plural = (count: number) => `${count} post${count === 1 ? "" : "s"}`;

/** Adds a category, or renames one: its name, and its address when the slug changes. */
function CategoryForm({ category, onDone }: { category: BlogCategory | null; onDone: () => void }) {
  const editor = useAdminForm({
    initial: category ? { name: category.name, slug: category.slug } : EMPTY,
    schema: CategoryInput,
  });
  const { form, setForm, error } = editor;
  const save = useAdminChange((body: CategoryInput) =>
    category ? at(adminApi.blog.category, { id: category.id }).put(body) : adminApi.blog.category.post(body),
  );
  const send = (body: CategoryInput, value: CategoryInput) =>
    saveForm(editor, save, body, value, {
      saved: category ? "Category renamed" : "Category created successfully",
      failed: category ? "Failed to rename category." : "Failed to create category.",
      next: EMPTY,
      done: onDone,
    });
  const moving = category !== null && form.slug !== category.slug && form.slug !== "";
  // Rename is pressed in the list: the form, above it (far above on a phone), takes the focus.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (category) box.current?.querySelector("input")?.focus();
  }, [category]);

  return (
    <div ref={box}>
      <form {...editor.formProps(send)} className="admin-form">
        <h2>{category ? `Rename “${category.name}”` : "Add Category"}</h2>
        <TextField
          label="Name"
          value={form.name}
          // Typing a new category's name also fills its slug; a renamed one keeps its address unless changed.
          onChange={(name) => setForm((f) => ({ name, slug: category ? f.slug : slugify(name) }))}
          error={error("name")}
        />
        <TextField label="Slug" {...editor.bind("slug")} />
        {moving && (
          <p className="hint" role="status">
            Its list moves to <code>{address("category", form.slug)}</code>. The old address,{" "}
            <code>{address("category", category.slug)}</code>, will forward there.
          </p>
        )}
        {category ? (
          <FormEnd editor={editor} save={save} onCancel={onDone} submit="Save Category" />
        ) : (
          <>
            {editor.elsewhere}
            <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
              Add Category
            </button>
          </>
        )}
      </form>
    </div>
  );
}

export function CategoriesTab() {
  const categories = useRead(blogCategoriesRead);
  // How many posts each category holds, for the delete confirmation.
  const counts = useQuery(adminQuery(adminApi.blog["category-posts"]));
  const postsIn = (slug: string) => counts.data && (counts.data.find((count) => count.category === slug)?.posts ?? 0);
  const [editing, setEditing] = useState<BlogCategory | null>(null);
  const [deleting, setDeleting] = useState<BlogCategory | null>(null);
  const remove = useAdminChange((id: number) => at(adminApi.blog.category, { id }).delete());
  // After a rename or a delete the row that had the focus may be gone: the list's heading takes
  // it, once the dialog has closed (closing gives the focus back to the button that opened it).
  const listHeading = useRef<HTMLHeadingElement>(null);
  const [focusList, setFocusList] = useState(0);
  const backToList = () => setFocusList((n) => n + 1);
  useEffect(() => {
    if (focusList > 0) listHeading.current?.focus();
  }, [focusList]);

  return (
    <>
      <div className="grid-2">
        <CategoryForm
          key={editing?.id ?? "new"}
          category={editing}
          onDone={() => {
            if (editing) backToList();
            setEditing(null);
          }}
        />
        <section aria-labelledby="categories-heading">
          <h2 id="categories-heading" ref={listHeading} tabIndex={-1}>
            Categories
          </h2>
          {categories.isPending ? (
            <p aria-busy="true">Loading categories...</p>
          ) : !categories.data?.length ? (
            <p>No categories found</p>
          ) : (
            <ul className="category-list">
              {categories.data.map((c) => {
                const count = postsIn(c.slug);
                return (
                  <li key={c.id}>
                    <span>
                      <strong>{c.name}</strong>
                      {count !== undefined && <small> · {plural(count)}</small>}
                      <br />
                      <code>{address("category", c.slug)}</code>
                    </span>
                    <span className="actions">
                      <button type="button" className="secondary outline small-button" onClick={() => setEditing(c)}>
                        Rename<span className="visually-hidden"> {c.name}</span>
                      </button>
                      <button type="button" className="danger outline small-button" onClick={() => setDeleting(c)}>
                        Delete<span className="visually-hidden"> {c.name}</span>
                      </button>
                    </span>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      </div>
      <DeleteDialog
        item={deleting}
        title="Delete Category"
        message={(c) => {
          const count = postsIn(c.slug);
          const held =
            count === undefined
              ? "Its posts become Uncategorized."
              : count === 0
                ? "It holds no posts."
                : count === 1
                  ? "Its one post becomes Uncategorized; it is not deleted."
                  : `Its ${count} posts become Uncategorized; none is deleted.`;
          return `Delete “${c.name}”? ${held} Its address, ${address("category", c.slug)}, will forward to the whole blog.`;
        }}
        remove={remove}
        success={{ title: "Success", description: "Category deleted" }}
        failure={{ title: "Error", description: "Failed to delete category." }}
        onClose={() => {
          if (deleting?.id === editing?.id) setEditing(null);
          setDeleting(null);
        }}
        onDeleted={backToList}
      />
      <RedirectsList kind="category" />
    </>
  );
}
