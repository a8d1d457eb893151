import { type Static, Type as t } from "@sinclair/typebox";
import { literalUnion } from "#shared/schema/common.ts";
import { BEACON_METRICS } from "./constants.ts";

/** One event the browser reports (docs/product.md#analytics); its key is checked by the server. */
const BeaconEvent = t.Object(
  {
    metric: literalUnion(BEACON_METRICS, { error: `Must be one of: ${BEACON_METRICS.join(", ")}` }),
    key: t.String({ maxLength: 300, error: "Must be text of at most 300 characters" }),
  },
  { additionalProperties: false },
);

/** The beacon's body: one or a few events. */
export const BeaconInput = t.Object(
  { events: t.Array(BeaconEvent, { minItems: 1, maxItems: 5, error: "Send 1 to 5 events" }) },
  { additionalProperties: false },
);
export type BeaconInput = Static<typeof BeaconInput>;
