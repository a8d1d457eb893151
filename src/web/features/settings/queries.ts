import { useQuery } from "@tanstack/react-query";
import type { SiteSettings } from "#shared/features/settings/contract.ts";
import { API } from "#shared/paths.ts";

// Shown only if settings could not be loaded (the error page when the database is down).
const FALLBACK: SiteSettings = {
  brandName: "Cam Guide",
  platformA: { name: "Platform One", url: "https://example.com/" },
  platformB: { name: "Platform Two", url: "https://example.org/" },
  bannerPlatform: "a",
};

export function useSettings(): SiteSettings {
  const { data } = useQuery<SiteSettings>({ queryKey: [API.settings] });
  return data ?? FALLBACK;
}
