import { afterEach, describe, expect, test } from "bun:test";
import { QueryClientProvider, type QueryKey, useQuery } from "@tanstack/react-query";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import type { SiteSettings } from "#shared/features/settings/contract.ts";
import { adminApp, requestLine } from "#tests/support/admin.ts";
import { testApp } from "#tests/support/app.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { sessionResumed, useSessionStore } from "#web/stores/session.ts";
import { ApiError, createQueryClient, NoAnswerError } from "./query-client.ts";

afterEach(() => {
  cleanup();
  act(sessionResumed);
});

const POST = { title: "A post", slug: "a-post", contentMarkdown: "Text.", published: false };
/** A body the guard or the write gate refuses before reading it. */
const UNREAD = {} as SiteSettings;

/**
 * The browser's requests to the real app, counted by method and path; the first `drop` of
 * them are lost on the way (no answer at all, as when the network fails).
 */
function counted(send: (path: string, init?: RequestInit) => Promise<Response>, drop = 0) {
  const sent = routeFetchTo(async (path, init) => {
    if (sent.length <= drop) throw new TypeError("Failed to fetch");
    return send(path, init);
  });
  return sent;
}

function wrapper() {
  const queryClient = createQueryClient();
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
}

/** Runs one admin change the way the forms do (`send` makes the typed call), and waits for its end. */
async function change(send: Parameters<typeof useAdminChange>[0]) {
  const { result } = renderHook(() => useAdminChange(send), { wrapper: wrapper() });
  act(() => result.current.mutate(undefined));
  await waitFor(() => expect(result.current.isSuccess || result.current.isError).toBe(true), { timeout: 5000 });
  return result.current;
}

describe("a change the server answered is never sent again", () => {
  test.each([
    ["409, a taken slug", 409],
    ["422, a body the server refuses", 422],
  ])("%s: sent once, the refusal shown as it came", async (_, status) => {
    const { asAdmin } = await adminApp({ seed: false });
    expect((await asAdmin(adminApi.blog.post, { method: "POST", json: POST })).status).toBe(201);
    const sent = counted(asAdmin);
    const body = status === 409 ? POST : { ...POST, slug: "Not A Slug!" };
    const outcome = await change(() => adminApi.blog.post.post(body));
    expect(outcome.error).toBeInstanceOf(ApiError);
    expect((outcome.error as ApiError).status).toBe(status);
    expect(sent).toEqual([requestLine("POST", adminApi.blog.post)]);
  });

  test("401, the session ended: sent once, and the dashboard is told to ask for a sign-in", async () => {
    const { request } = testApp({ seed: false });
    const sent = counted(request);
    const outcome = await change(() => adminApi.settings.put(UNREAD));
    expect((outcome.error as ApiError).status).toBe(401);
    expect(sent).toEqual([requestLine("PUT", adminApi.settings)]);
    expect(useSessionStore.getState()).toEqual({ ended: true, asking: true });
  });

  test("503, the site cannot keep data now: sent once", async () => {
    // The storage check as the server sees a data folder it cannot write to.
    const stopped = { ok: false, status: 503, reason: "the data folder cannot be written" } as const;
    let state: typeof stopped | { ok: true } = { ok: true };
    const { asAdmin } = await adminApp({
      seed: false,
      storage: { check: () => state, recheck: () => state, roomFor: () => state },
    });
    state = stopped;
    const sent = counted(asAdmin);
    const outcome = await change(() => adminApi.settings.put(UNREAD));
    expect((outcome.error as ApiError).status).toBe(503);
    expect(sent).toEqual([requestLine("PUT", adminApi.settings)]);
  });
});

describe("a change with no answer at all", () => {
  test("a PUT (the same record, the same body) is sent once more, and succeeds", async () => {
    const { asAdmin } = await adminApp({ seed: false });
    const created = (await (await asAdmin(adminApi.blog.post, { method: "POST", json: POST })).json()) as {
      id: number;
    };
    const sent = counted(asAdmin, 1);
    const route = at(adminApi.blog.post, { id: created.id });
    const outcome = await change(() => route.put({ ...POST, title: "Renamed" }));
    expect(outcome.isSuccess).toBe(true);
    expect(sent).toEqual([requestLine("PUT", route), requestLine("PUT", route)]);
  });

  test("a PUT that gets no answer twice gives up after the second, saying the server could not be reached", async () => {
    const { asAdmin } = await adminApp({ seed: false });
    const sent = counted(asAdmin, 5);
    const outcome = await change(() => adminApi.settings.put(UNREAD));
    expect(outcome.error).toBeInstanceOf(NoAnswerError);
    expect(outcome.error?.message).toBe("The server could not be reached. Check your connection and try again.");
    expect(sent).toHaveLength(2);
  });

  test("a POST that creates something is never sent twice: the first may have arrived", async () => {
    const { asAdmin } = await adminApp({ seed: false });
    const sent = counted(asAdmin, 1);
    const outcome = await change(() => adminApi.blog.post.post(POST));
    expect(outcome.error).toBeInstanceOf(NoAnswerError);
    expect(sent).toEqual([requestLine("POST", adminApi.blog.post)]);
    expect(await (await asAdmin(adminApi.blog.posts)).json()).toMatchObject({ posts: [], total: 0 });
  });
});

describe("queries", () => {
  /** A query of a declared read's address (its key, the default query function) or an admin route's options. */
  async function read(query: string | { queryKey: QueryKey }, drop = 0) {
    const options = typeof query === "string" ? { queryKey: [query] } : query;
    const sent = counted(testApp({ seed: false }).request, drop);
    const { result } = renderHook(() => useQuery(options), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isPending).toBe(false), { timeout: 5000 });
    // Only this query's requests (a query of an earlier test may still be running).
    return { sent: sent.filter((line) => line === `GET ${options.queryKey[0]}`), result: result.current };
  }

  test("a 404 is asked once: asking again gets the same answer", async () => {
    const { sent, result } = await read("/api/blog/post/no-such-post");
    expect((result.error as ApiError).status).toBe(404);
    expect(sent).toEqual(["GET /api/blog/post/no-such-post"]);
  });

  test("a 401 is asked once, and only says the session ended (nothing to save, no dialog opened)", async () => {
    const { sent, result } = await read(adminQuery(adminApi.blog.posts));
    expect((result.error as ApiError).status).toBe(401);
    expect(sent).toEqual([requestLine("GET", adminApi.blog.posts)]);
    expect(useSessionStore.getState()).toEqual({ ended: true, asking: false });
    // Nor does a second refusal in the background.
    await read(adminQuery(adminApi.links));
    expect(useSessionStore.getState()).toEqual({ ended: true, asking: false });
  });

  test("no answer: asked once more", async () => {
    const { sent, result } = await read("/api/blog/posts", 1);
    expect(result.isSuccess).toBe(true);
    expect(sent).toEqual(["GET /api/blog/posts", "GET /api/blog/posts"]);
  });

  test("a 401 keeps what a query already shows, until the admin signs in again", async () => {
    const { asAdmin, request } = await adminApp({ seed: false });
    let send: (path: string, init?: RequestInit) => Promise<Response> = asAdmin;
    routeFetchTo((path, init) => send(path, init));
    const queryClient = createQueryClient();
    const { result } = renderHook(() => useQuery(adminQuery(adminApi.blog.posts)), {
      wrapper: ({ children }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>,
    });
    const none = { posts: [], total: 0, page: 1, pages: 0, pageSize: 20 };
    await waitFor(() => expect(result.current.data).toEqual(none));
    send = request;
    await act(() => queryClient.invalidateQueries());
    expect(result.current.isError).toBe(false);
    expect(result.current.data).toEqual(none);
    expect(useSessionStore.getState().ended).toBe(true);
  });
});
