import { useState } from "react";
import { Link, useSearch } from "wouter";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { Wizard } from "#web/ui/wizard.tsx";
import { ErrorState, Loading } from "#web/ui/error-state.tsx";
import { PlatformButtons } from "#web/features/settings/platform-buttons.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import { saveResult } from "#web/lib/save-result.ts";
import { useRead } from "#web/lib/reads.ts";
import { need, optional, type PageRoute } from "#web/page-route.ts";
import { pageTitle } from "#shared/features/settings/brand.ts";
import { API } from "#shared/paths.ts";
import { computeTier } from "#shared/features/earnings/tiers.ts";
import { earningsQuestions } from "#shared/features/earnings/content.ts";
import { earningsResultRead, tierProfileRead } from "#shared/features/earnings/reads.ts";
import { quizResultRead } from "#shared/features/quiz/reads.ts";

export const route: PageRoute = {
  // The calculator is the same for everyone, and a saved tier result never changes.
  cache: true,
  data: async ({ search, read }) => {
    const id = search.get("id");
    if (search.get("tier") && id) {
      const result = await read(earningsResultRead, { id });
      return [optional(earningsResultRead, { id }), ...(result ? [need(tierProfileRead, { name: result.tier })] : [])];
    }
    const quizId = search.get("quizId");
    // A stale quiz id only means the result is saved without it: not a missing page.
    return quizId ? [{ ...optional(quizResultRead, { id: quizId }), missingStatus: 200 }] : [];
  },
};

/** /quiz/earnings: the calculator, or with tier and id the tier result (SPEC 2, three modes). */
export default function EarningsPage() {
  const search = new URLSearchParams(useSearch());
  const id = search.get("id");
  if (search.get("tier") && id) return <TierResult id={id} />;
  return <Calculator quizId={search.get("quizId")} />;
}

function Calculator({ quizId }: { quizId: string | null }) {
  const { brandName } = useSettings();
  const [saving, setSaving] = useState(false);
  // A stale quiz id in the address must not block saving: it is sent only if it exists.
  const quiz = useRead(quizResultRead, quizId ? { id: quizId } : null);
  const knownQuizId = quiz.data?.id ?? null;

  async function finish(answers: (1 | 2 | 3)[]) {
    const { tier, estimatedEarnings, score } = computeTier(answers);
    setSaving(true);
    const body = { quizResultId: knownQuizId, tier, estimatedEarnings, score, answers };
    const saved = await saveResult(API.earningsResults, body, "Failed to save earnings result. Please try again.");
    if (!saved) return setSaving(false);
    // SPEC 4: a full page navigation to the tier result.
    window.location.assign(`/quiz/earnings?tier=${encodeURIComponent(tier)}&id=${encodeURIComponent(saved.id)}`);
  }

  return (
    <>
      <PageMeta
        title={pageTitle("Cam Model Earnings Calculator", brandName)}
        description="Estimate what you could earn as a cam model: 15 quick questions about your hours, schedule, setup, promotion and goals give an honest monthly range."
      />
      <header className="page-intro">
        <h1>Calculate Your Earning Potential</h1>
        <p>
          Answer 15 quick questions about your schedule, setup and goals. You will get an honest monthly range and the
          habits that move it up. Estimates are illustrative, not promises.
        </p>
      </header>
      <Wizard questions={earningsQuestions} onFinish={finish} busy={saving} />
    </>
  );
}

function TierResult({ id }: { id: string }) {
  const { brandName } = useSettings();
  const result = useRead(earningsResultRead, { id });
  const tier = useRead(tierProfileRead, result.data ? { name: result.data.tier } : null);
  if (result.isPending || (tier.isPending && tier.fetchStatus !== "idle")) return <Loading text="Loading your earnings potential..." />;
  const profile = tier.data;
  if (!result.data || !profile) {
    return (
      <>
        <PageMeta title={pageTitle("Earnings Results", brandName)} description="Your cam model earnings estimate." noindex />
        <ErrorState message="We couldn't load your earnings calculation. Please try again." action="Restart the Quiz" href="/quiz" />
      </>
    );
  }
  const { quizResultId, estimatedEarnings } = result.data;
  return (
    <article className="result">
      <PageMeta
        title={pageTitle(`${profile.tier}: Your Earnings Potential`, brandName)}
        description={`${profile.tier}: ${estimatedEarnings}. ${profile.tagline}`}
      />
      <header className="result-hero">
        <p className="eyebrow">Your earnings potential</p>
        <p className="result-emoji" aria-hidden="true">
          {profile.emoji}
        </p>
        <h1>{profile.tier}</h1>
        <p className="earnings-range">{estimatedEarnings}</p>
        <p className="lead">{profile.tagline}</p>
      </header>

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

      <PlatformButtons />

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
      </section>
    </article>
  );
}
