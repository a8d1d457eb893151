import { afterEach, expect, test } from "bun:test";
import type { SiteSettings } from "#shared/features/settings/contract.ts";
import { restoreFetch, routeFetchTo } from "#tests/support/fetch.ts";
import { ApiError, NoAnswerError, retryMutation } from "#web/lib/query-client.ts";
import { sessionResumed, useSessionStore } from "#web/stores/session.ts";
import { adminApi, adminHref, answer, at, backgroundApi, uploadApi } from "./admin-client.ts";

afterEach(() => {
  restoreFetch();
  sessionResumed();
});

const POST = { title: "A post", slug: "a-post", contentMarkdown: "Text.", published: false };
const SETTINGS = {} as SiteSettings;

/** Every request the client sends, by method and path, each answered by `answer`. */
function recorded(reply: () => Response = () => Response.json({})) {
  const sent: { line: string; init: RequestInit | undefined }[] = [];
  routeFetchTo(async (path, init) => {
    sent.push({ line: `${init?.method ?? "GET"} ${path}`, init });
    return reply();
  });
  return sent;
}

test("a route with its parameter is an address, not a request; the value is encoded", async () => {
  const sent = recorded();
  const post = at(adminApi.blog.post, { id: 5 });
  expect(post["~path"]).toBe(`${adminApi.blog.post["~path"]}/5`);
  expect(at(adminApi.backups.files, { name: "a b/c.tar" })["~path"]).toBe(
    `${adminApi.backups.files["~path"]}/a%20b%2Fc.tar`,
  );
  expect(sent).toEqual([]);
  await answer(post.put(POST));
  expect(sent.map(({ line }) => line)).toEqual([`PUT ${adminApi.blog.post["~path"]}/5`]);
});

test("Eden's own call of a segment named like a method sends that method: the reason for at()", async () => {
  const sent = recorded();
  await (adminApi.blog.post({ id: 5 }) as unknown as Promise<unknown>);
  expect(sent.map(({ line }) => line)).toEqual([`POST ${adminApi.blog["~path"]}`]);
});

test("a body is sent as JSON; an upload as the browser's own multipart form, untouched", async () => {
  const sent = recorded();
  await answer(adminApi.blog.post.post(POST));
  expect(sent[0]!.init?.body).toBe(JSON.stringify(POST));
  expect(new Headers(sent[0]!.init?.headers).get("content-type")).toBe("application/json");
  const form = new FormData();
  form.append("file", new File(["x"], "a.txt", { type: "text/plain" }));
  await answer(uploadApi.post(undefined, { fetch: { body: form } }));
  expect(sent[1]!.line).toBe(`POST ${uploadApi["~path"]}`);
  expect(sent[1]!.init?.body).toBe(form);
  expect(new Headers(sent[1]!.init?.headers).has("content-type")).toBe(false);
});

test("an answer keeps its strings as sent: dates are not turned into Date objects", async () => {
  recorded(() =>
    Response.json({
      posts: [{ id: 1, createdAt: "2026-11-27T10:00:00.000Z" }],
      total: 1,
      page: 1,
      pages: 1,
      pageSize: 20,
    }),
  );
  const {
    posts: [post],
  } = await answer(adminApi.blog.posts.get());
  expect(post?.createdAt).toBe("2026-11-27T10:00:00.000Z");
});

test("a refusal throws the ApiError with the server's message and field problems", async () => {
  const refusal = { error: "Some fields are missing or invalid.", details: [{ field: "slug", message: "Taken" }] };
  recorded(() => Response.json(refusal, { status: 422 }));
  const error = await answer(adminApi.blog.post.post(POST)).catch((failure: unknown) => failure);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status: 422, error: refusal.error, details: refusal.details });
});

test("no answer: a NoAnswerError naming the method, so only a PUT is sent once more", async () => {
  routeFetchTo(async () => {
    throw new TypeError("Failed to fetch");
  });
  const put = await answer(adminApi.settings.put(SETTINGS)).catch((failure: unknown) => failure);
  const post = await answer(adminApi.blog.post.post(POST)).catch((failure: unknown) => failure);
  expect([put, post].map((error) => error instanceof NoAnswerError && error.method)).toEqual(["PUT", "POST"]);
  expect([retryMutation(0, put), retryMutation(1, put), retryMutation(0, post)]).toEqual([true, false, false]);
});

test("a 401 to what the page sent by itself says the session ended; to a change the admin asked for, it asks to sign in", async () => {
  recorded(() => Response.json({ error: "Sign in as the admin to continue." }, { status: 401 }));
  await answer(backgroundApi.editor.preview.post({ markdown: "Text" })).catch(() => {});
  expect(useSessionStore.getState()).toEqual({ ended: true, asking: false });
  await answer(adminApi.settings.put(SETTINGS)).catch(() => {});
  expect(useSessionStore.getState()).toEqual({ ended: true, asking: true });
});

test("a download's address: the route's path and its query", () => {
  expect(adminHref(adminApi["analytics.csv"], { days: 7 })).toBe(`${adminApi["analytics.csv"]["~path"]}?days=7`);
  expect(adminHref(at(adminApi.backups.files, { name: "x.tar" }))).toBe(`${adminApi.backups.files["~path"]}/x.tar`);
});
