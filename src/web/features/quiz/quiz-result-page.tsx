import { Link, useSearch } from "wouter";
import { isArchetype } from "#shared/features/quiz/constants.ts";
import { archetypeProfileRead, quizResultRead } from "#shared/features/quiz/reads.ts";
import { shareAddress, shareImagePath } from "#shared/features/quiz/share.ts";
import { PlatformButtons } from "#web/features/settings/platform-buttons.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import { useRead } from "#web/lib/reads.ts";
import { optional, type PageRoute, required } from "#web/page-route.ts";
import { ErrorState, Loading } from "#web/ui/error-state.tsx";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { ResultGone, resultMissing } from "#web/ui/result-gone.tsx";
import { ArchetypeMix, ShareResult } from "./result-share.tsx";

const resultAddress = (archetype: string, id: string) =>
  `/quiz/result?archetype=${encodeURIComponent(archetype)}&id=${encodeURIComponent(id)}`;

const archetypeIn = (search: URLSearchParams) => {
  const named = search.get("archetype") ?? "";
  return isArchetype(named) ? named : null;
};

export const route: PageRoute = {
  // A saved result never changes, so its page is the same for anyone at that address.
  cache: true,
  redirect: ({ search }) => (search.get("archetype") || search.get("id") ? null : { to: "/quiz" }),
  status: ({ search }) => (archetypeIn(search) || search.get("id") ? 200 : 404),
  // A saved result shows what it holds: an archetype in the address that differs from it
  // is corrected with a redirect. An address without an id shows its archetype's profile.
  loader: async ({ search, read }) => {
    const named = archetypeIn(search);
    const id = search.get("id");
    const result = id ? await read(quizResultRead, { id }) : null;
    if (id && result) {
      if (result.archetype !== named) return { to: resultAddress(result.archetype, id) };
      return [optional(quizResultRead, { id }), required(archetypeProfileRead, { name: result.archetype })];
    }
    // An id that names no kept result (expired, or mistyped) is a 404, whatever archetype the address names.
    if (id) return [optional(quizResultRead, { id })];
    return named ? [required(archetypeProfileRead, { name: named })] : [];
  },
};

/** /quiz/result?archetype={name}&id={resultId} (docs/product.md#quiz-result-page). */
export default function QuizResultPage() {
  const { resultRetentionDays } = useSettings();
  const search = new URLSearchParams(useSearch());
  const id = search.get("id");
  const fromQuery = archetypeIn(search);
  // The saved result decides; the address's archetype is shown while it loads (the quiz
  // has just named it) and when the address has no id. An id that names no kept result
  // (expired, or mistyped) shows that it is gone.
  const result = useRead(quizResultRead, id ? { id } : null);
  const gone = id !== null && resultMissing(result);
  const archetype = gone ? null : (result.data?.archetype ?? fromQuery ?? null);
  const profileQuery = useRead(archetypeProfileRead, archetype ? { name: archetype } : null);
  const profile = profileQuery.data;

  if (gone) {
    return (
      <ResultGone
        page="Quiz Result"
        what="quiz results"
        days={resultRetentionDays}
        action="Retake the Quiz"
        href="/quiz"
      >
        {fromQuery && (
          <p>
            <Link href={shareAddress(fromQuery)}>Read about the {fromQuery} archetype</Link>
          </p>
        )}
      </ResultGone>
    );
  }
  if (
    (!fromQuery && result.isPending && result.fetchStatus !== "idle") ||
    (profileQuery.isPending && profileQuery.fetchStatus !== "idle")
  ) {
    return <Loading text="Loading your results..." />;
  }
  if (!profile) {
    return (
      <>
        <PageMeta page="Quiz Results" description="Your cam model archetype quiz results." noindex />
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
        page={`${profile.name}: Your Cam Model Archetype`}
        description={`${profile.name}: ${profile.tagline}`}
        // Shared and indexed by the archetype's own address: never the saved result's id.
        canonicalPath={shareAddress(profile.name)}
        image={shareImagePath(profile.name)}
      />
      <header className="result-hero">
        <p className="eyebrow">Your cam model archetype is</p>
        <p className="result-emoji" aria-hidden="true">
          {profile.emoji}
        </p>
        <h1>{profile.name}</h1>
        <p className="lead">{profile.tagline}</p>
      </header>

      {result.data && <ArchetypeMix answers={result.data.answers} />}

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

      <ShareResult archetype={profile.name} />

      <PlatformButtons placement="quiz-result" />

      <section className="next-step" aria-labelledby="next-heading">
        <h2 id="next-heading">Next: what could you earn?</h2>
        <p>Answer 15 quick questions about your schedule, setup and goals for an honest monthly range.</p>
        <Link href={id ? `/quiz/earnings?quizId=${encodeURIComponent(id)}` : "/quiz/earnings"} role="button">
          Calculate My Earnings
        </Link>
        <p>
          <Link href="/plan">See your plan</Link>: the course modules to take first for your archetype.
        </p>
        <p>
          <Link href="/quiz">Retake the quiz</Link>
        </p>
      </section>
    </article>
  );
}
