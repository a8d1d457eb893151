import { useId } from "react";
import { type Placement, placedHref } from "#shared/features/links/constants.ts";
import { AffiliateDisclosure, AffiliateLabel } from "#web/features/disclosure/disclosure.tsx";
import { useSettings } from "./queries.ts";

/** The two affiliate sign-up buttons: a new tab, marked sponsored, each labelled as an affiliate link. */
export function PlatformButtons({
  heading = "Ready to start? Pick a platform",
  placement,
}: {
  heading?: string;
  /** Where the buttons are shown, told to the managed link (/go/<slug>?p=…). */
  placement: Placement;
}) {
  const { platformA, platformB } = useSettings();
  const labelId = useId();
  return (
    <section className="platform-buttons" aria-labelledby="platform-buttons-heading">
      <h2 id="platform-buttons-heading">{heading}</h2>
      <div className="button-row">
        {[platformA, platformB].map((platform, i) => (
          <span key={platform.url} className="affiliate-item">
            <a
              href={placedHref(platform.url, placement)}
              target="_blank"
              rel="sponsored noopener"
              role="button"
              className={i === 0 ? undefined : "secondary"}
              aria-describedby={`${labelId}-${i}`}
            >
              Join {platform.name}
              <span className="visually-hidden"> (opens in a new tab)</span>
            </a>
            <AffiliateLabel id={`${labelId}-${i}`} kind="affiliate" />
          </span>
        ))}
      </div>
      <AffiliateDisclosure at="content" />
    </section>
  );
}
