import { defineRead } from "#shared/read.ts";
import type { SiteSettings } from "./contract.ts";

/** Every page reads these for its layout. */
export const settingsRead = defineRead<SiteSettings>()("/api/settings", {});
