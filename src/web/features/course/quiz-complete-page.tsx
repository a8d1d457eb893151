import { Link, useSearch } from "wouter";
import { afterModule, parseModuleId } from "#shared/features/course/course.ts";
import { OfferCard } from "#web/features/offers/offer-card.tsx";
import type { PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

export const route: PageRoute = { cache: true };

/** /learn/quiz-complete?moduleId={n} (docs/product.md#completion-pages). */
export default function QuizCompletePage() {
  const n = parseModuleId(new URLSearchParams(useSearch()).get("moduleId")) || 1;
  return (
    <section className="completion-page">
      <PageMeta page={`Module ${n} Quiz`} description={`The quiz of module ${n}.`} noindex />
      <h1>Ready for the Module {n} quiz?</h1>
      <p className="lead">
        Five questions, each with an explanation. There is no pass mark to unlock anything: it is for you.
      </p>
      <OfferCard moduleId={n} page="quiz-complete" />
      <div className="button-row">
        <Link href={`/learn/${n}`} role="button">
          Start Module Quiz
        </Link>
        <Link href={afterModule(n)} role="button" className="secondary outline">
          Skip for now
        </Link>
      </div>
    </section>
  );
}
