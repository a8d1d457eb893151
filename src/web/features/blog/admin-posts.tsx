import type { Static } from "@sinclair/typebox";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type AdminBlogPost, PostFormInput, type PostInput } from "#shared/features/blog/contract.ts";
import { blogCategoriesRead } from "#shared/features/blog/reads.ts";
import { declaredFields } from "#shared/schema/declared-fields.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { AdminTable, DeleteDialog } from "#web/admin/admin-table.tsx";
import { AutosaveStatus, RestorePrompt, useAutosave } from "#web/admin/autosave.tsx";
import { Check, Field } from "#web/admin/field.tsx";
import { FormEnd, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { MarkdownEditor } from "#web/features/editor/markdown-editor.tsx";
import { ImageUploader } from "#web/features/media/uploaders.tsx";
import { ApiError, retryQuery } from "#web/lib/query-client.ts";
import { useRead } from "#web/lib/reads.ts";
import { slugify } from "#web/lib/slug.ts";
import { toast, toastError } from "#web/stores/toast.ts";
import { PreviewButton } from "./preview-button.tsx";
import { isPublicNow, PostStatus, PublishDate } from "./publish-date.tsx";
import { SocialPreview } from "./social-preview.tsx";

/** The post form's value: what it sends. */
type PostForm = Static<typeof PostFormInput>;

export function PostsTab({ onEdit, onNew }: { onEdit: (post: AdminBlogPost) => void; onNew: () => void }) {
  const posts = useQuery({ ...adminQuery(adminApi.blog.posts), retry: retryQuery(2) });
  const categories = useRead(blogCategoriesRead);
  const categoryName = (slug: string) => categories.data?.find((c) => c.slug === slug)?.name ?? slug;
  const [deleting, setDeleting] = useState<AdminBlogPost | null>(null);
  const remove = useAdminChange((id: number) => at(adminApi.blog.post, { id }).delete());

  if (posts.isPending) return <p aria-busy="true">Loading posts...</p>;
  if (posts.isError) return <p role="alert">Error loading posts: {posts.error.message}</p>;
  if (posts.data.length === 0) {
    return (
      <div className="empty-state">
        <p>No blog posts found</p>
        <button type="button" onClick={onNew}>
          Create Your First Post
        </button>
      </div>
    );
  }
  return (
    <>
      <AdminTable
        rows={posts.data}
        name={(post) => post.title}
        view={(post) => (isPublicNow(post) ? `/blog/${post.slug}` : null)}
        onEdit={onEdit}
        onDelete={setDeleting}
        columns={[
          { header: "Title", cell: (post) => post.title },
          { header: "Category", cell: (post) => (post.category ? categoryName(post.category) : "Uncategorized") },
          { header: "Status", cell: (post) => <PostStatus post={post} /> },
        ]}
      />
      <DeleteDialog
        item={deleting}
        title="Delete Post"
        message={(post) => `Are you sure you want to delete "${post.title}"? This action cannot be undone.`}
        remove={remove}
        success={{ title: "Success", description: "Post deleted successfully" }}
        failure={{ title: "Error", description: "Failed to delete post." }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}

/** A new post's form: empty, a draft without a category or a cover. */
const NEW_POST: PostForm = {
  title: "",
  slug: "",
  contentMarkdown: "",
  excerpt: "",
  category: null,
  coverImage: null,
  metaDescription: "",
  metaKeywords: "",
  published: false,
  publishAt: null,
};

export function PostEditor({ post, onDone }: { post: AdminBlogPost | null; onDone: () => void }) {
  const categories = useRead(blogCategoriesRead);
  const editor = useAdminForm({
    schema: PostFormInput,
    initial: post ? declaredFields(PostFormInput, post) : NEW_POST,
  });
  const { form, set, setForm, error } = editor;
  const autosave = useAutosave({
    key: `post:${post?.id ?? "new"}`,
    form,
    dirty: editor.dirty,
    savedAt: post?.updatedAt ?? null,
    onRestore: (fields) => setForm((f) => ({ ...f, ...fields })),
  });
  const save = useAdminChange((body: PostInput) =>
    post ? at(adminApi.blog.post, { id: post.id }).put(body) : adminApi.blog.post.post(body),
  );

  const send = (body: PostForm, value: PostForm) =>
    save.mutate(body, {
      onSuccess: () => {
        editor.accepted(value);
        autosave.saved();
        toast({ title: "Success", description: post ? "Post updated successfully" : "Post created successfully" });
        onDone();
      },
      onError: (failure) => {
        editor.refused(failure, body);
        const conflict = failure instanceof ApiError && failure.status === 409;
        toastError(conflict ? "That slug is already used by another post." : "Failed to save post. Please try again.");
      },
    });

  return (
    <form {...editor.formProps(send)} className="admin-form">
      <h2>{post ? "Edit Post" : "New Post"}</h2>
      <RestorePrompt autosave={autosave} />
      <Field label="Title" error={error("title")}>
        {(props) => (
          <input
            {...props}
            value={form.title}
            onChange={(e) => {
              const title = e.target.value;
              // The slug follows the title in create mode only.
              setForm((f) => ({ ...f, title, slug: post ? f.slug : slugify(title) }));
            }}
          />
        )}
      </Field>
      <Field label="Slug" error={error("slug")}>
        {(props) => <input {...props} value={form.slug} onChange={(e) => set("slug", e.target.value)} />}
      </Field>
      <MarkdownEditor
        label="Content"
        value={form.contentMarkdown}
        onChange={(contentMarkdown) => set("contentMarkdown", contentMarkdown)}
        error={error("contentMarkdown")}
        hint={
          post?.convertedFromHtml
            ? "This post was written before the editor: its HTML is shown as Markdown. Check the preview before you save."
            : undefined
        }
      />
      <Field label="Excerpt" error={error("excerpt")}>
        {(props) => (
          <textarea {...props} rows={3} value={form.excerpt ?? ""} onChange={(e) => set("excerpt", e.target.value)} />
        )}
      </Field>
      <Field label="Category" error={error("category")}>
        {(props) => (
          <select {...props} value={form.category ?? ""} onChange={(e) => set("category", e.target.value || null)}>
            <option value="">Uncategorized</option>
            {(categories.data ?? []).map((c) => (
              <option key={c.slug} value={c.slug}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <ImageUploader
        label="Cover image"
        value={form.coverImage ?? null}
        onChange={(url) => set("coverImage", url)}
        error={error("coverImage")}
      />
      <Field label="Meta description" error={error("metaDescription")}>
        {(props) => (
          <input
            {...props}
            value={form.metaDescription ?? ""}
            onChange={(e) => set("metaDescription", e.target.value)}
          />
        )}
      </Field>
      <Field label="Meta keywords (comma separated)" error={error("metaKeywords")}>
        {(props) => (
          <input {...props} value={form.metaKeywords ?? ""} onChange={(e) => set("metaKeywords", e.target.value)} />
        )}
      </Field>
      <SocialPreview
        title={form.title}
        slug={form.slug}
        metaDescription={form.metaDescription ?? ""}
        excerpt={form.excerpt ?? ""}
        coverImage={form.coverImage ?? null}
      />
      <Check
        label="Publish post"
        checked={form.published}
        onChange={(published) => set("published", published)}
        error={error("published")}
      />
      <PublishDate
        value={form.publishAt ?? null}
        published={form.published}
        onChange={(publishAt) => set("publishAt", publishAt)}
        error={error("publishAt")}
      />
      <AutosaveStatus status={autosave.status} />
      <p>
        <PreviewButton body={() => form} id={post?.id ?? null} />
      </p>
      <FormEnd
        editor={editor}
        onCancel={onDone}
        pending={save.isPending}
        submit={post ? "Update Post" : "Create Post"}
      />
    </form>
  );
}
