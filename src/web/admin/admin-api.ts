import { type QueryKey, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, retryMutation, retryQuery } from "#web/lib/query-client.ts";

export const ADMIN_API = {
  me: "/api/auth/me",
  posts: "/api/admin/blog/posts",
  post: (id?: number) => (id ? `/api/admin/blog/post/${id}` : "/api/admin/blog/post"),
  category: (id?: number) => (id ? `/api/admin/blog/category/${id}` : "/api/admin/blog/category"),
  offers: "/api/admin/affiliate-offers",
  offer: (id?: number) => (id ? `/api/admin/affiliate-offer/${id}` : "/api/admin/affiliate-offer"),
  products: "/api/admin/recommended-products",
  product: (id?: string) =>
    id ? `/api/admin/recommended-product/${encodeURIComponent(id)}` : "/api/admin/recommended-product",
  links: "/api/admin/links",
  link: (id: number) => `/api/admin/link/${id}`,
  analytics: (days: number) => `/api/admin/analytics?days=${days}`,
  analyticsCsv: (days: number) => `/api/admin/analytics.csv?days=${days}`,
  checkLinks: "/api/admin/links/check",
  checkLink: (id: number) => `/api/admin/links/${id}/check`,
  newLink: "/api/admin/link",
  settings: "/api/admin/settings",
  address: "/api/admin/settings/address",
  upload: "/api/upload",
  login: "/api/auth/login",
  logout: "/api/auth/logout",
  loginCode: "/api/auth/login/code",
  account: "/api/admin/account",
  twoFactorStart: "/api/admin/account/two-factor/start",
  twoFactorConfirm: "/api/admin/account/two-factor/confirm",
  recoveryCodes: "/api/admin/account/two-factor/recovery-codes",
  twoFactorDisable: "/api/admin/account/two-factor/disable",
  password: "/api/admin/account/password",
  home: "/api/admin/home",
  linkChecks: "/api/admin/settings/link-checks",
  resultRetention: "/api/admin/settings/result-retention",
  backups: "/api/admin/backups",
  backupSummary: "/api/admin/backups/summary",
  backupRun: "/api/admin/backups/run",
  backupSchedule: "/api/admin/backups/schedule",
  backupFile: (name: string) => `/api/admin/backups/files/${encodeURIComponent(name)}`,
  media: "/api/admin/media",
  mediaItem: (id: number, force = false) => `/api/admin/media/${id}${force ? "?force=1" : ""}`,
  sitePages: "/api/admin/site-pages",
  sitePage: (slug: string) => `/api/admin/site-page/${encodeURIComponent(slug)}`,
} as const;

export interface Me {
  isAdmin: boolean;
  user?: { id: number; username: string };
}

/** The session check is retried twice while the local flag says we are signed in (when no answer came), never otherwise. */
export function useMe(flag: boolean) {
  return useQuery<Me>({ queryKey: [ADMIN_API.me], retry: retryQuery(flag ? 2 : 0), staleTime: 0 });
}

/** A JSON call that refreshes the given lists when it succeeds; sent again only as retryMutation allows. */
export function useAdminMutation<TBody, TResult = unknown>(
  method: "POST" | "PUT" | "DELETE",
  url: (body: TBody) => string,
  refresh: QueryKey[],
  send = true,
) {
  const queryClient = useQueryClient();
  return useMutation<TResult, Error, TBody>({
    mutationFn: (body) => api<TResult>(method, url(body), send ? { json: body } : {}),
    retry: retryMutation(method),
    onSuccess: () => Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
