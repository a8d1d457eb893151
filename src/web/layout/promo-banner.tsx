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
        Join {platform.name} today and start earning! Over 100,000 webcam models trust {platform.name} for steady
        income.
      </a>
    </aside>
  );
}
