import { Link, useSearch } from "wouter";
import { moduleCompleteSkip, parseModuleId } from "#shared/features/course/course.ts";
import { OfferCard } from "#web/features/offers/offer-card.tsx";
import type { PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

export const route: PageRoute = { cache: true };

/** /learn/module-complete?moduleId={n}: the default module is 1 (docs/product.md#completion-pages). */
export default function ModuleCompletePage() {
  const n = parseModuleId(new URLSearchParams(useSearch()).get("moduleId")) || 1;
  return (
    <section className="completion-page">
      <PageMeta page={`Module ${n} Lessons Done`} description={`You finished the lessons of module ${n}.`} noindex />
      {/* Not "complete": the module counts as completed once its quiz is done. */}
      <h1>
        <span aria-hidden="true">🎉</span> Module {n} lessons done!
      </h1>
      <p className="lead">
        Nice work. Its five-question quiz completes the module in your progress: take it now, or move on and come back
        to it.
      </p>
      <OfferCard moduleId={n} page="module-complete" heading="A special offer for you" />
      <div className="button-row">
        <Link href={`/learn/${n}?quiz=true`} role="button">
          Start Module {n} Quiz
        </Link>
        <Link href={moduleCompleteSkip(n)} role="button" className="secondary outline">
          Skip to the next module
        </Link>
      </div>
    </section>
  );
}
