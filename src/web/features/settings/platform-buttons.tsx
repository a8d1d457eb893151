import { type Placement, placedHref } from "#shared/features/links/constants.ts";
import { useSettings } from "./queries.ts";

/** The two affiliate sign-up buttons: a new tab, marked sponsored. */
export function PlatformButtons({
  heading = "Ready to start? Pick a platform",
  placement,
}: {
  heading?: string;
  /** Where the buttons are shown, told to the managed link (/go/<slug>?p=…). */
  placement: Placement;
}) {
  const { platformA, platformB } = useSettings();
  return (
    <section className="platform-buttons" aria-labelledby="platform-buttons-heading">
      <h2 id="platform-buttons-heading">{heading}</h2>
      <div className="button-row">
        {[platformA, platformB].map((platform, i) => (
          <a
            key={platform.url}
            href={placedHref(platform.url, placement)}
            target="_blank"
            rel="sponsored noopener"
            role="button"
            className={i === 0 ? undefined : "secondary"}
          >
            Join {platform.name}
            <span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        ))}
      </div>
      <p className="muted small">Affiliate links: we may earn a commission if you sign up, at no cost to you.</p>
    </section>
  );
}
