import { eq } from "drizzle-orm";
import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import { createElement } from "react";
import type { Db } from "#server/db/types.ts";
import { refuseForeign } from "#server/features/auth/guard.ts";
import { type SessionTokens, sessionAdmin } from "#server/features/auth/session.ts";
import { xmlText } from "#server/lib/xml.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { readBodyLimited } from "#server/plugins/json-body.ts";
import type { PageRenderer, PreviewRenderer } from "#server/ssr/render.tsx";
import { PREVIEW_PATH } from "#shared/features/blog/constants.ts";
import { PostInput } from "#shared/features/blog/contract.ts";
import { blogPostRead, blogRelatedRead } from "#shared/features/blog/reads.ts";
import { checkSchema } from "#shared/schema/check.ts";
import { PreviewNotice } from "#web/features/blog/preview-notice.tsx";
import { postValues } from "./admin-service.ts";
import { postsInCategory, toPost } from "./service.ts";
import { blogPosts } from "./table.ts";

/** A post's form is at most its content (200 KB) and a few short fields, sent as one form field. */
const PREVIEW_BODY_LIMIT = 512 * 1024;

type Row = typeof blogPosts.$inferSelect;

export interface PreviewOptions {
  db: Db;
  tokens: SessionTokens;
  allowedOrigins: (request: Request, server: Server | null) => string[];
  render: PageRenderer & { preview: PreviewRenderer };
  now: () => Date;
}

function problemPage(status: number, lines: string[]): Response {
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>The preview could not be shown</title></head>
<body><main>
<h1>The preview could not be shown</h1>
${lines.map((line) => `<p>${xmlText(line)}</p>`).join("\n")}
<p>Fix it in the editor, then press Preview again.</p>
</main></body>
</html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-robots-tag": "noindex" },
  });
}

/**
 * The post preview: GET /admin/preview/post/:id shows a saved post, and POST /admin/preview/post
 * the editor's unsaved form, rendered exactly as its public page with a notice kept in view. Only the
 * signed-in admin sees it: anyone else gets the site's 404 page, as for an address that does not
 * exist. Never cached, never indexed.
 */
export function blogPreviewRoutes({ db, tokens, allowedOrigins, render, now }: PreviewOptions) {
  const notFound = async (request: Request) => {
    const response = await render(request, 404);
    response.headers.set("cache-control", "no-store");
    response.headers.set("x-robots-tag", "noindex");
    return response;
  };

  const show = async (row: Row, kind: "saved" | "unsaved") => {
    const post = toPost(row);
    const answers = new Map<string, unknown>([
      [blogPostRead.key({ slug: post.slug }), post],
      [blogRelatedRead.key({ slug: post.slug }), await postsInCategory(db, post.category, post.slug, now())],
    ]);
    const state = !post.published
      ? "draft"
      : post.publishAt && new Date(post.publishAt) > now()
        ? "scheduled"
        : "published";
    return render.preview({
      pathname: `/blog/${encodeURIComponent(post.slug)}`,
      answers,
      notice: createElement(PreviewNotice, {
        editor: `/admin/posts/${row.id || "new"}`,
        state: kind === "unsaved" ? "unsaved" : state,
        publishAt: post.publishAt,
        address: `/blog/${post.slug}`,
      }),
    });
  };

  return new Elysia({ name: "blog-preview" })
    .get(`${PREVIEW_PATH}/:id`, async ({ request, params }) => {
      if (!(await sessionAdmin(db, tokens, request)) || !/^\d{1,9}$/.test(params.id)) return notFound(request);
      const [row] = await db
        .select()
        .from(blogPosts)
        .where(eq(blogPosts.id, Number(params.id)))
        .limit(1);
      return row ? show(row, "saved") : notFound(request);
    })
    .post(
      PREVIEW_PATH,
      async ({ request, server }) => {
        refuseForeign(request, allowedOrigins(request, server));
        if (!(await sessionAdmin(db, tokens, request))) return notFound(request);
        if (!/^application\/x-www-form-urlencoded\s*(;|$)/i.test(request.headers.get("content-type") ?? ""))
          return problemPage(415, ["The preview takes the editor's form."]);
        const tooLarge = `The post is larger than ${PREVIEW_BODY_LIMIT / 1024} KB.`;
        let fields: URLSearchParams;
        try {
          fields = new URLSearchParams(
            new TextDecoder().decode(await readBodyLimited(request, PREVIEW_BODY_LIMIT, tooLarge)),
          );
        } catch (error) {
          if (error instanceof HttpError) return problemPage(error.status, [error.message]);
          throw error;
        }
        let input: unknown;
        try {
          input = JSON.parse(fields.get("post") ?? "");
        } catch {
          return problemPage(400, ["The editor's form could not be read."]);
        }
        const problems = checkSchema(PostInput, input);
        if (problems.length)
          return problemPage(
            422,
            problems.map((p) => `${p.field}: ${p.message}`),
          );
        const id = Number(fields.get("id") ?? "0");
        const [existing] =
          Number.isInteger(id) && id > 0 ? await db.select().from(blogPosts).where(eq(blogPosts.id, id)).limit(1) : [];
        let values: Awaited<ReturnType<typeof postValues>>;
        try {
          values = await postValues(db, input as PostInput);
        } catch (error) {
          if (error instanceof HttpError)
            return problemPage(422, [
              error.message,
              ...((error.details as { message: string }[] | undefined) ?? []).map((d) => d.message),
            ]);
          throw error;
        }
        const at = now();
        return show(
          {
            id: existing?.id ?? 0,
            createdAt: existing?.createdAt ?? at,
            updatedAt: at,
            ...values,
          },
          "unsaved",
        );
      },
      // The body is read above, within its limit.
      { parse: () => null },
    );
}
