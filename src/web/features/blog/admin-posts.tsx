import type { Static } from "@sinclair/typebox";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { type AdminBlogPost, PostFormInput, type PostInput } from "#shared/features/blog/contract.ts";
import { blogCategoriesRead } from "#shared/features/blog/reads.ts";
import { declaredFields } from "#shared/schema/declared-fields.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { AdminTable, DeleteRecordDialog, EmptyList } from "#web/admin/admin-table.tsx";
import { AutosaveStatus, RestorePrompt, useAutosave } from "#web/admin/autosave.tsx";
import { Check, Field, TextField } from "#web/admin/field.tsx";
import { FormEnd, saveForm, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { MarkdownEditor } from "#web/features/editor/markdown-editor.tsx";
import { ImageUploader } from "#web/features/media/uploaders.tsx";
import { ApiError, retryQuery } from "#web/lib/query-client.ts";
import { useRead } from "#web/lib/reads.ts";
import { slugify } from "#web/lib/slug.ts";
import { RedirectsList } from "./admin-redirects.tsx";
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
    return <EmptyList text="No blog posts found" action="Create Your First Post" onAction={onNew} />;
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
      <DeleteRecordDialog item={deleting} noun="post" remove={remove} onClose={() => setDeleting(null)} />
      <RedirectsList kind="post" />
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
  const { form, set, setForm, error, bind } = editor;
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
    saveForm(editor, save, body, value, {
      saved: post ? "Post updated successfully" : "Post created successfully",
      failed: (failure) =>
        failure instanceof ApiError && failure.status === 409
          ? "That slug is already used by another post."
          : "Failed to save post. Please try again.",
      done: () => {
        autosave.saved();
        onDone();
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
      <TextField label="Slug" {...bind("slug")} />
      {post?.published && form.slug !== post.slug && form.slug !== "" && (
        <p className="hint" role="status">
          This post’s address changes from <code>/blog/{post.slug}</code> to <code>/blog/{form.slug}</code>. Links and
          search results that use the old address will be forwarded to the new one; the list of old addresses is under
          the posts.
        </p>
      )}
      <MarkdownEditor
        label="Content"
        {...bind("contentMarkdown")}
        hint={
          post?.convertedFromHtml
            ? "This post was written before the editor: its HTML is shown as Markdown. Check the preview before you save."
            : undefined
        }
      />
      <TextField label="Excerpt" rows={3} {...bind("excerpt")} />
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
      <ImageUploader label="Cover image" {...bind("coverImage")} />
      <TextField label="Meta description" {...bind("metaDescription")} />
      <TextField label="Meta keywords (comma separated)" {...bind("metaKeywords")} />
      <SocialPreview
        title={form.title}
        slug={form.slug}
        metaDescription={form.metaDescription ?? ""}
        excerpt={form.excerpt ?? ""}
        coverImage={form.coverImage ?? null}
      />
      <Check label="Publish post" {...bind("published")} />
      <PublishDate published={form.published} {...bind("publishAt")} />
      <AutosaveStatus status={autosave.status} />
      <p>
        <PreviewButton body={() => form} id={post?.id ?? null} />
      </p>
      <FormEnd editor={editor} save={save} onCancel={onDone} submit={post ? "Update Post" : "Create Post"} />
    </form>
  );
}
