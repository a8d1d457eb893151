import { Link, useSearch } from "wouter";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { ErrorState, Loading } from "#web/ui/error-state.tsx";
import { PlatformButtons } from "#web/features/settings/platform-buttons.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import { useQuizResult } from "./queries.ts";
import { pageTitle } from "#shared/features/settings/brand.ts";
import { archetypeProfile } from "#shared/features/quiz/content.ts";
import { isArchetype } from "#shared/features/quiz/constants.ts";

/** /quiz/result?archetype={name}&id={resultId} (SPEC 2). */
export default function QuizResultPage() {
  const { brandName } = useSettings();
  const search = new URLSearchParams(useSearch());
  const id = search.get("id");
  const named = search.get("archetype");
  const fromQuery = named && isArchetype(named) ? named : null;
  // The archetype comes from the address; only without a known one is the result loaded by id.
  const result = useQuizResult(fromQuery ? null : id);
  const archetype = fromQuery ?? result.data?.archetype ?? null;
  const profile = archetype ? archetypeProfile(archetype) : undefined;

  if (!fromQuery && result.isPending && result.fetchStatus !== "idle") {
    return <Loading text="Loading your results..." />;
  }
  if (!profile) {
    return (
      <>
        <PageMeta title={pageTitle("Quiz Results", brandName)} description="Your cam model archetype quiz results." noindex />
        <ErrorState
          message="We couldn't load your quiz results. Please try taking the quiz again."
          action="Retake the Quiz"
          href="/quiz"
        />
      </>
    );
  }

  return (
    <article className="result">
      <PageMeta
        title={pageTitle(`${profile.name}: Your Cam Model Archetype`, brandName)}
        description={`${profile.name}: ${profile.tagline}`}
      />
      <header className="result-hero">
        <p className="eyebrow">Your cam model archetype is</p>
        <p className="result-emoji" aria-hidden="true">
          {profile.emoji}
        </p>
        <h1>{profile.name}</h1>
        <p className="lead">{profile.tagline}</p>
      </header>

      <section aria-labelledby="about-heading">
        <h2 id="about-heading">What this means for you</h2>
        <p>{profile.description}</p>
      </section>

      <section aria-labelledby="powers-heading">
        <h2 id="powers-heading">Your superpowers</h2>
        <ul className="superpowers">
          {profile.superpowers.map((power) => (
            <li key={power.text}>
              <span aria-hidden="true">{power.emoji}</span> {power.text}
            </li>
          ))}
        </ul>
      </section>

      <PlatformButtons />

      <section className="next-step" aria-labelledby="next-heading">
        <h2 id="next-heading">Next: what could you earn?</h2>
        <p>Answer 15 quick questions about your schedule, setup and goals for an honest monthly range.</p>
        <Link href={id ? `/quiz/earnings?quizId=${encodeURIComponent(id)}` : "/quiz/earnings"} role="button">
          Calculate My Earnings
        </Link>
        <p>
          <Link href="/quiz">Retake the quiz</Link>
        </p>
      </section>
    </article>
  );
}
