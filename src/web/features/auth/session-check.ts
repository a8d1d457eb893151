import { useQuery } from "@tanstack/react-query";
import { authApi } from "#web/admin/admin-client.ts";
import { adminQuery } from "#web/admin/admin-queries.ts";
import { retryQuery } from "#web/lib/query-client.ts";

/** The server's word on this browser's session: whether it is the admin's, and whose. */
export const sessionCheck = adminQuery(authApi.me);

/** The session check, retried twice while the local flag says we are signed in (when no answer came), never otherwise. */
export function useSessionCheck(flag: boolean) {
  return useQuery({ ...sessionCheck, retry: retryQuery(flag ? 2 : 0), staleTime: 0 });
}
