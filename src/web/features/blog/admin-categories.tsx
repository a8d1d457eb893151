import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { BlogCategory } from "#shared/features/blog/contract.ts";
import { CategoryInput } from "#shared/features/blog/contract.ts";
import { API } from "#shared/paths.ts";
import { ADMIN_API, useAdminMutation } from "#web/admin/admin-api.ts";
import { Field } from "#web/admin/field.tsx";
import { formErrors } from "#web/admin/form-errors.ts";
import { serverFieldErrors } from "#web/lib/query-client.ts";
import { slugify } from "#web/lib/slug.ts";
import { toast } from "#web/stores/toast.ts";

export function CategoriesTab() {
  const queryClient = useQueryClient();
  const categories = useQuery<BlogCategory[]>({ queryKey: [API.blogCategories] });
  const [form, setForm] = useState({ name: "", slug: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const refresh = [[API.blogCategories], [API.blogPosts], [ADMIN_API.posts]];
  const create = useAdminMutation<typeof form>("POST", () => ADMIN_API.category(), refresh);
  const remove = useAdminMutation<number>("DELETE", (id) => ADMIN_API.category(id), refresh, false);

  function submit(event: FormEvent) {
    event.preventDefault();
    const problems = formErrors(CategoryInput, form);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    create.mutate(form, {
      onSuccess: () => {
        toast({ title: "Success", description: "Category created successfully" });
        setForm({ name: "", slug: "" });
      },
      onError: (error) => {
        setErrors(serverFieldErrors(error));
        toast({ title: "Error", description: "Failed to create category.", variant: "destructive" });
      },
    });
  }

  return (
    <div className="grid-2">
      <form onSubmit={submit} noValidate className="admin-form">
        <h2>Add Category</h2>
        <Field label="Name" error={errors.name}>
          {(props) => (
            <input
              {...props}
              value={form.name}
              // Typing a category name also fills its slug.
              onChange={(e) => setForm({ name: e.target.value, slug: slugify(e.target.value) })}
            />
          )}
        </Field>
        <Field label="Slug" error={errors.slug}>
          {(props) => (
            <input {...props} value={form.slug} onChange={(e) => setForm({ ...form, slug: e.target.value })} />
          )}
        </Field>
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
                  // The outcome is not checked; the list is fetched again either way.
                  onClick={() =>
                    remove.mutate(c.id, {
                      onError: (error) => console.warn("Category delete failed", error.message),
                      onSettled: () => void queryClient.invalidateQueries({ queryKey: [API.blogCategories] }),
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
