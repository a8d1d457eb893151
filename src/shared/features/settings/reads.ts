import { defineRead } from "#shared/read.ts";
import type { PublicSettings } from "./contract.ts";

/** Every page reads these for its layout. */
export const settingsRead = defineRead<PublicSettings>()("/api/settings", {});
