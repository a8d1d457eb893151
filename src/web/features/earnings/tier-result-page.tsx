import { Link, useSearch } from "wouter";
import { estimateBand, inputsFor, monthRange, tierRangeText } from "#shared/features/earnings/estimate.ts";
import { earningsResultRead, tierProfileRead } from "#shared/features/earnings/reads.ts";
import { PlatformButtons } from "#web/features/settings/platform-buttons.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import { useRead } from "#web/lib/reads.ts";
import { optional, type PageRoute, required } from "#web/page-route.ts";
import { ErrorState, Loading } from "#web/ui/error-state.tsx";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { ResultGone, resultMissing } from "#web/ui/result-gone.tsx";
import { EarningsEstimate } from "./earnings-estimate.tsx";

export const route: PageRoute = {
  // A saved tier result never changes.
  cache: true,
  // Its address names the tier it holds: another spelling redirects there (one page per result).
  loader: async ({ search, read }) => {
    const id = search.get("id") ?? "";
    const result = await read(earningsResultRead, { id });
    if (result && search.get("tier") !== result.tier)
      return { to: `/quiz/earnings?tier=${encodeURIComponent(result.tier)}&id=${encodeURIComponent(id)}` };
    return [
      optional(earningsResultRead, { id }),
      ...(result ? [required(tierProfileRead, { name: result.tier })] : []),
    ];
  },
};

/** The calculator's address (the same path without a tier and a result id). */
const CALCULATOR_PATH = "/quiz/earnings";

/** /quiz/earnings?tier={name}&id={resultId}: the saved estimate with its tier's profile;
 * ?hours=, ?days= and ?share= hold the what-if values of its band. */
export default function TierResultPage() {
  const search = new URLSearchParams(useSearch());
  const id = search.get("id") ?? "";
  const { resultRetentionDays } = useSettings();
  const result = useRead(earningsResultRead, { id });
  const tier = useRead(tierProfileRead, result.data ? { name: result.data.tier } : null);
  if (result.isPending || (tier.isPending && tier.fetchStatus !== "idle"))
    return <Loading text="Loading your earnings potential..." />;
  const profile = tier.data;
  if (resultMissing(result)) {
    return (
      <ResultGone
        page="Earnings Result"
        what="earnings estimates"
        days={resultRetentionDays}
        action="Calculate Again"
        href={CALCULATOR_PATH}
      />
    );
  }
  if (!result.data || !profile) {
    return (
      <>
        <PageMeta page="Earnings Results" description="Your cam model earnings estimate." noindex />
        <ErrorState
          message="We couldn't load your earnings calculation. Please try again."
          action="Calculate Again"
          href={CALCULATOR_PATH}
        />
      </>
    );
  }
  const { quizResultId, answers } = result.data;
  // One model for every figure: the headline is the worked example's own band (with the
  // what-if values in the address), and the tier's general band is the same sums over the
  // tier's usual schedule. The range the result was saved with is not shown: results saved
  // before the model gave the tiers their bands hold another text.
  const band = estimateBand(inputsFor(profile.tier, answers, search));
  const own = monthRange(band.low, band.high);
  return (
    <article className="result">
      <PageMeta page={`${profile.tier}: Your Earnings Potential`} description={`${profile.tier}. ${profile.tagline}`} />
      <header className="result-hero">
        <p className="eyebrow">Your earnings potential</p>
        <p className="result-emoji" aria-hidden="true">
          {profile.emoji}
        </p>
        <h1>{profile.tier}</h1>
        <p className="earnings-range" data-testid="own-range">
          <span className="visually-hidden">Your own estimate: </span>
          {own}
        </p>
        <p className="earnings-range-note">
          Your own estimate, from your answers and the assumptions worked through below. {profile.tier} in general:{" "}
          <strong data-testid="tier-range">{tierRangeText(profile.tier)}</strong>, from this tier's fewest to its most
          hours, by the same sums. Illustrative, not a prediction: the first months are often lower.
        </p>
        <p className="lead">{profile.tagline}</p>
      </header>

      <EarningsEstimate tier={profile.tier} answers={answers} id={id} />

      <section aria-labelledby="tier-about">
        <h2 id="tier-about">What this means</h2>
        {profile.description.split(/\n\n+/).map((paragraph) => (
          <p key={paragraph.slice(0, 40)}>{paragraph}</p>
        ))}
      </section>

      <section aria-labelledby="tier-schedule">
        <h2 id="tier-schedule">Suggested schedule</h2>
        <ul>
          {profile.schedule.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>

      <aside className="tip" aria-labelledby="tier-tip">
        <h2 id="tier-tip">Pro tip</h2>
        <p>{profile.tip}</p>
      </aside>

      <PlatformButtons placement="tier-result" />

      <section className="next-step">
        {quizResultId ? (
          <Link href={`/quiz/starter-kit?quizId=${encodeURIComponent(quizResultId)}`} role="button">
            GET MY STARTER KIT
          </Link>
        ) : (
          <Link href="/learn" role="button">
            START FREE COURSE
          </Link>
        )}
        <p>
          <Link href="/plan">See your plan</Link>: the modules to take first for your persona and tier, and your next
          step.
        </p>
      </section>
    </article>
  );
}
