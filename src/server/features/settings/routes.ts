import { serveRead } from "#server/lib/reads.ts";
import { settingsRead } from "#shared/features/settings/reads.ts";
import { getSettings } from "./service.ts";

export const settingsReads = [serveRead(settingsRead, ({ db }) => getSettings(db))];
