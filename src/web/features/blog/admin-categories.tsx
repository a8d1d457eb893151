import { CategoryInput } from "#shared/features/blog/contract.ts";
import { blogCategoriesRead } from "#shared/features/blog/reads.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { useAdminChange, useAdminRefresh } from "#web/admin/admin-queries.ts";
import { TextField } from "#web/admin/field.tsx";
import { saveForm, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { useRead } from "#web/lib/reads.ts";
import { slugify } from "#web/lib/slug.ts";

const EMPTY = { name: "", slug: "" };

export function CategoriesTab() {
  const refresh = useAdminRefresh();
  const categories = useRead(blogCategoriesRead);
  const editor = useAdminForm({ initial: EMPTY, schema: CategoryInput });
  const { form, setForm, error } = editor;
  const create = useAdminChange((body: CategoryInput) => adminApi.blog.category.post(body));
  const remove = useAdminChange((id: number) => at(adminApi.blog.category, { id }).delete());

  const send = (body: CategoryInput, value: CategoryInput) =>
    saveForm(editor, create, body, value, {
      saved: "Category created successfully",
      failed: "Failed to create category.",
      next: EMPTY,
    });

  return (
    <div className="grid-2">
      <form {...editor.formProps(send)} className="admin-form">
        <h2>Add Category</h2>
        <TextField
          label="Name"
          value={form.name}
          // Typing a category name also fills its slug.
          onChange={(name) => setForm({ name, slug: slugify(name) })}
          error={error("name")}
        />
        <TextField label="Slug" {...editor.bind("slug")} />
        {editor.elsewhere}
        <button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
          Add Category
        </button>
      </form>
      <section aria-labelledby="categories-heading">
        <h2 id="categories-heading">Categories</h2>
        {categories.isPending ? (
          <p aria-busy="true">Loading categories...</p>
        ) : !categories.data?.length ? (
          <p>No categories found</p>
        ) : (
          <ul className="category-list">
            {categories.data.map((c) => (
              <li key={c.id}>
                <span>
                  <strong>{c.name}</strong> <code>/{c.slug}</code>
                </span>
                <button
                  type="button"
                  className="danger outline small-button"
                  // The outcome is not checked; the lists are fetched again either way.
                  onClick={() =>
                    remove.mutate(c.id, {
                      onError: (error) => {
                        console.warn("Category delete failed", error.message);
                        void refresh(adminApi.blog.category);
                      },
                    })
                  }
                >
                  Delete<span className="visually-hidden"> {c.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
