import type { Static } from "@sinclair/typebox";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { ADMIN_POSTS_MAX_SEARCH, readAdminPostsPage } from "#shared/features/blog/constants.ts";
import {
  type AdminBlogPost,
  type AdminPostRow,
  PostFormInput,
  type PostInput,
} from "#shared/features/blog/contract.ts";
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
import { Loading } from "#web/ui/error-state.tsx";
import { RedirectsList } from "./admin-redirects.tsx";
import { PreviewButton } from "./preview-button.tsx";
import { isPublicNow, PostStatus, PublishDate } from "./publish-date.tsx";
import { SocialPreview } from "./social-preview.tsx";

/** The post form's value: what it sends. */
type PostForm = Static<typeof PostFormInput>;

/** How long the search waits after the last key before it asks the server. */
export const SEARCH_DELAY_MS = 300;

/** The list's address: the page and the search, each only when it is not the default. */
function postsAddress(page: number, q: string): string {
  const query = new URLSearchParams();
  if (page > 1) query.set("page", String(page));
  if (q !== "") query.set("q", q);
  return query.size > 0 ? `/admin/posts?${query}` : "/admin/posts";
}

/** The page and the search the address names (a page it cannot be reads as the first). */
function useListAddress(): { page: number; q: string } {
  const search = new URLSearchParams(useSearch());
  return {
    page: readAdminPostsPage(search.get("page")) ?? 1,
    q: (search.get("q") ?? "").trim().slice(0, ADMIN_POSTS_MAX_SEARCH),
  };
}

/**
 * The Blog Posts section (docs/product.md#admin-dashboard): a page of posts at a time, newest
 * first, searched by title or slug as the admin types; the page and the search are in the
 * address, so Back, reload and a shared link keep them. Rows hold no text: the editor asks
 * for its post by id.
 */
export function PostsTab({ onEdit, onNew }: { onEdit: (post: AdminPostRow) => void; onNew: () => void }) {
  const [, navigate] = useLocation();
  const { page, q } = useListAddress();
  const query = { ...(page > 1 ? { page: String(page) } : {}), ...(q !== "" ? { q } : {}) };
  // The page shown stays until the next one is here: nothing jumps while it comes.
  const posts = useQuery({
    ...adminQuery(adminApi.blog.posts, query),
    retry: retryQuery(2),
    placeholderData: keepPreviousData,
  });
  const categories = useRead(blogCategoriesRead);
  const categoryName = (slug: string) => categories.data?.find((c) => c.slug === slug)?.name ?? slug;
  const [deleting, setDeleting] = useState<AdminPostRow | null>(null);
  const remove = useAdminChange((id: number) => at(adminApi.blog.post, { id }).delete());
  const searchId = useId();

  // What is typed goes to the address (the first page of what it finds) once typing pauses.
  const [typed, setTyped] = useState(q);
  useEffect(() => {
    const wanted = typed.trim();
    if (wanted === q) return;
    const timer = setTimeout(() => navigate(postsAddress(1, wanted), { replace: true }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed, q, navigate]);
  // A search the address changes by itself (Back, a link) shows in the box.
  const shownQ = useRef(q);
  useEffect(() => {
    if (shownQ.current === q) return;
    shownQ.current = q;
    setTyped((current) => (current.trim() === q ? current : q));
  }, [q]);

  // No post at all (not a search's previous answer shown while the next one comes): the first to write.
  if (posts.isSuccess && !posts.isPlaceholderData && posts.data.total === 0 && q === "") {
    return <EmptyList text="No blog posts found" action="Create Your First Post" onAction={onNew} />;
  }
  const data = posts.data;
  const clear = () => {
    setTyped("");
    navigate(postsAddress(1, ""), { replace: true });
  };
  return (
    <>
      <div role="search" className="post-search">
        <div className="field">
          <label htmlFor={`${searchId}-q`}>Search posts</label>
          <input
            id={`${searchId}-q`}
            type="search"
            value={typed}
            maxLength={ADMIN_POSTS_MAX_SEARCH}
            placeholder="Title or slug"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${searchId}-count`}
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        {/* Always a line (a space while there is no count yet), so nothing moves when it comes. */}
        <p id={`${searchId}-count`} className="muted" aria-live="polite">
          {data ? countText(data.total, q) : "\u00a0"}
        </p>
      </div>
      {posts.isPending ? (
        <Loading text="Loading posts..." />
      ) : posts.isError && !data ? (
        <div role="alert">
          <p>Error loading posts: {posts.error.message}</p>
          <button type="button" onClick={() => void posts.refetch()}>
            Try Again
          </button>
        </div>
      ) : !data ? null : data.total === 0 ? (
        <div className="empty-state">
          <p>No posts match “{q}”.</p>
          <button type="button" className="secondary outline" onClick={clear}>
            Clear the search
          </button>
        </div>
      ) : data.posts.length === 0 ? (
        <div className="empty-state">
          <p>
            There is no page {data.page}: {q === "" ? "the posts" : "the posts found"} fill{" "}
            {data.pages === 1 ? "one page" : `${data.pages} pages`}.
          </p>
          <Link href={postsAddress(data.pages, q)} role="button" className="secondary outline">
            Go to page {data.pages}
          </Link>
        </div>
      ) : (
        <>
          <div aria-busy={posts.isPlaceholderData}>
            <AdminTable
              rows={data.posts}
              name={(post) => post.title}
              view={(post) => (isPublicNow(post) ? `/blog/${post.slug}` : null)}
              onEdit={onEdit}
              onDelete={setDeleting}
              columns={[
                { header: "Title", cell: (post) => post.title },
                {
                  header: "Category",
                  cell: (post) => (post.category ? categoryName(post.category) : "Uncategorized"),
                },
                { header: "Status", cell: (post) => <PostStatus post={post} /> },
              ]}
            />
          </div>
          {/* The address's page: while it loads, the one before stays shown under it. */}
          {data.pages > 1 && <Pages page={page} pages={data.pages} q={q} />}
        </>
      )}
      <DeleteRecordDialog item={deleting} noun="post" remove={remove} onClose={() => setDeleting(null)} />
      <RedirectsList kind="post" />
    </>
  );
}

/** How many posts the list holds, or the search finds. */
function countText(total: number, q: string): string {
  const posts = `${total.toLocaleString("en-US")} ${total === 1 ? "post" : "posts"}`;
  return q === "" ? posts : `${posts} ${total === 1 ? "matches" : "match"} “${q}”`;
}

/**
 * Previous, where the list stands, Next: links to the pages' addresses (a keyboard follows
 * them, a new tab opens them), a disabled button where there is no page to go to, so
 * nothing moves from one page to the next.
 */
function Pages({ page, pages, q }: { page: number; pages: number; q: string }) {
  const step = (to: number, label: string) =>
    to >= 1 && to <= pages ? (
      <Link href={postsAddress(to, q)} role="button" className="secondary outline">
        {label}
      </Link>
    ) : (
      <button type="button" className="secondary outline" disabled>
        {label}
      </button>
    );
  return (
    <nav aria-label="Pages of posts" className="post-pages">
      {step(page - 1, "Previous")}
      <p>
        Page {page.toLocaleString("en-US")} of {pages.toLocaleString("en-US")}
      </p>
      {step(page + 1, "Next")}
    </nav>
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
