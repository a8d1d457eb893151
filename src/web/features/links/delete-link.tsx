import { useQuery } from "@tanstack/react-query";
import { GO_PREFIX } from "#shared/features/links/constants.ts";
import type { AdminLink } from "#shared/features/links/contract.ts";
import { adminApi, answer, at } from "#web/admin/admin-client.ts";
import { useAdminChange } from "#web/admin/admin-queries.ts";
import { ConfirmDialog } from "#web/admin/confirm-dialog.tsx";
import { serverReason } from "#web/lib/query-client.ts";
import { toast, toastError } from "#web/stores/toast.ts";

/** The words of the delete confirmation: what uses the link, and what becomes of posts that link to it. */
function usageMessage(slug: string, usage: { sources: string[]; posts: { title: string }[] }): string {
  const address = `${GO_PREFIX}${slug}`;
  if (usage.sources.length > 0)
    return `${address} cannot be deleted while ${usage.sources.join(", ")} ${usage.sources.length > 1 ? "use" : "uses"} it: pick another link for each of them first.`;
  const posts = usage.posts;
  if (posts.length === 0) return `Delete ${address}? No platform, offer, product or post uses it.`;
  const titles = posts.map((p) => `"${p.title}"`).join(", ");
  const one = posts.length === 1;
  return `Delete ${address}? ${one ? "1 post links" : `${posts.length} posts link`} to it (${titles}): ${one ? "its" : "their"} text stays, and the link then leads to the home page until you edit ${one ? "it" : "them"}.`;
}

/** "Delete /go/<slug>": asks, naming what uses the link; a link a platform, offer or product uses cannot be deleted. */
export function DeleteLinkDialog({ link, onClose }: { link: AdminLink; onClose: () => void }) {
  const usage = useQuery({
    queryKey: ["link-usage", link.id],
    queryFn: () => answer(at(adminApi.link, { id: link.id }).usage.get()),
    staleTime: 0,
    gcTime: 0,
  });
  const remove = useAdminChange(() => at(adminApi.link, { id: link.id }).delete());
  const message = usage.data
    ? usageMessage(link.slug, usage.data)
    : usage.isError
      ? serverReason(usage.error, "What uses this link could not be read. Close this and try again.")
      : "Looking for what uses this link...";
  return (
    <ConfirmDialog
      open
      title={`Delete ${GO_PREFIX}${link.slug}`}
      message={message}
      busy={remove.isPending}
      blocked={!usage.data || usage.data.sources.length > 0}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSuccess: () => {
            toast({ title: `${GO_PREFIX}${link.slug} deleted` });
            onClose();
          },
          onError: (error) => toastError(serverReason(error, "Failed to delete the link. Please try again.")),
        })
      }
    />
  );
}
