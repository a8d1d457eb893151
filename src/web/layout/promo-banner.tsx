import { useId } from "react";
import { useLocation } from "wouter";
import { placedHref } from "#shared/features/links/constants.ts";
import { AffiliateLabel } from "#web/features/disclosure/disclosure.tsx";
import { useDiscreet } from "#web/features/privacy/discreet-mode.ts";
import { useSettings } from "#web/features/settings/queries.ts";
import { showsPromoBanner } from "./nav-paths.ts";

export function PromoBanner() {
  const [location] = useLocation();
  const settings = useSettings();
  // Discreet mode: no sponsor banner (CSS already hides it before scripts run).
  const discreet = useDiscreet();
  const labelId = useId();
  if (discreet || !showsPromoBanner(location)) return null;
  const platform = settings.bannerPlatform === "b" ? settings.platformB : settings.platformA;
  // The operator's claim about the platform (a site setting, stored trimmed): empty leaves only the invitation.
  const claim = settings.bannerClaim.replaceAll("{platform}", () => platform.name);
  return (
    <aside className="promo-banner" aria-label="Sponsored">
      <AffiliateLabel id={labelId} kind="sponsored" />{" "}
      <a href={placedHref(platform.url, "banner")} target="_blank" rel="sponsored noopener" aria-describedby={labelId}>
        <span>
          Join {platform.name} today and start earning!
          {claim && (
            <>
              {" "}
              <span className="promo-banner-more">{claim}</span>
            </>
          )}
        </span>
      </a>
    </aside>
  );
}
