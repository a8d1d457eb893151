import { useLocation } from "wouter";
import { useSettings } from "#web/features/settings/queries.ts";
import { showsPromoBanner } from "./nav-paths.ts";

export function PromoBanner() {
  const [location] = useLocation();
  const settings = useSettings();
  if (!showsPromoBanner(location)) return null;
  const platform = settings.bannerPlatform === "b" ? settings.platformB : settings.platformA;
  return (
    <aside className="promo-banner" aria-label="Sponsored">
      <a href={platform.url} target="_blank" rel="sponsored noopener">
        <span>
          Join {platform.name} today and start earning!{" "}
          <span className="promo-banner-more">Over 100,000 webcam models trust {platform.name} for steady income.</span>
        </span>
      </a>
    </aside>
  );
}
