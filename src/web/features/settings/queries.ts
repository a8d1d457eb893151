import type { PublicSettings } from "#shared/features/settings/contract.ts";
import { settingsRead } from "#shared/features/settings/reads.ts";
import { DEFAULT_RESULT_RETENTION_DAYS } from "#shared/features/settings/result-retention.ts";
import { useRead } from "#web/lib/reads.ts";

// Shown only if settings could not be loaded (the error page when the database is down).
const FALLBACK: PublicSettings = {
  brandName: "Cam Guide",
  platformA: { name: "Platform One", url: "/go/platform-one" },
  platformB: { name: "Platform Two", url: "/go/platform-two" },
  bannerPlatform: "a",
  // No claims: without the settings the site does not know which ones the operator stands by.
  incomeFigure: "",
  modelsHelpedFigure: "",
  testimonialQuote: "",
  testimonialAttribution: "",
  bannerClaim: "",
  // No gifts: only the ones the operator set can be offered.
  giftDiscountCode: "",
  giftDiscountPartner: "",
  giftDiscountPercent: null,
  communityUrl: "",
  resultRetentionDays: DEFAULT_RESULT_RETENTION_DAYS,
  footerPages: [],
};

export function useSettings(): PublicSettings {
  const { data } = useRead(settingsRead);
  return data ?? FALLBACK;
}
