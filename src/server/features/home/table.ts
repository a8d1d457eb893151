import { table, textId, timestampNow } from "#server/db/columns.ts";

/**
 * The setup checklist's items the owner confirmed as right for their site ("this is right for
 * my site"): a confirmed item is not shown again, whatever the data says.
 */
export const setupConfirmations = table("setup_confirmations", {
  item: textId("item"),
  confirmedAt: timestampNow("confirmed_at"),
});
