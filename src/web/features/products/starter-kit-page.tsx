import { useId } from "react";
import { Link, useSearch } from "wouter";
import { placedHref } from "#shared/features/links/constants.ts";
import { IMAGE_SIZES, type ImageUrlFit } from "#shared/features/media/constants.ts";
import { ALL_ARCHETYPES, badgeTone } from "#shared/features/products/constants.ts";
import type { RecommendedProduct } from "#shared/features/products/contract.ts";
import { starterKit } from "#shared/features/products/kit.ts";
import { productsRead } from "#shared/features/products/reads.ts";
import { archetypeProfileRead, quizResultRead } from "#shared/features/quiz/reads.ts";
import { AffiliateLabel } from "#web/features/disclosure/disclosure.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import { useRead } from "#web/lib/reads.ts";
import { optional, type PageRoute, required } from "#web/page-route.ts";
import { ErrorState, Loading } from "#web/ui/error-state.tsx";
import { FitImage } from "#web/ui/fit-image.tsx";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { ResultGone, resultMissing } from "#web/ui/result-gone.tsx";

export const route: PageRoute = {
  cache: true,
  redirect: ({ search }) => (search.get("quizId") ? null : { to: "/quiz" }),
  // The quiz result names the archetype whose products and profile the kit shows.
  loader: async ({ search, read }) => {
    const id = search.get("quizId") ?? "";
    const quiz = await read(quizResultRead, { id });
    const picked = quiz
      ? [
          required(productsRead, { archetype: quiz.archetype }),
          required(archetypeProfileRead, { name: quiz.archetype }),
        ]
      : [];
    return [optional(quizResultRead, { id }), required(productsRead, { archetype: ALL_ARCHETYPES }), ...picked];
  },
};

/** /quiz/starter-kit?quizId={id} (docs/product.md#starter-kit). */
export default function StarterKitPage() {
  const { resultRetentionDays } = useSettings();
  const quizId = new URLSearchParams(useSearch()).get("quizId");
  const quiz = useRead(quizResultRead, quizId ? { id: quizId } : null);
  const archetype = quiz.data?.archetype ?? null;
  const products = useRead(productsRead, archetype ? { archetype } : null);
  const essentials = useRead(productsRead, { archetype: ALL_ARCHETYPES });
  const profileQuery = useRead(archetypeProfileRead, archetype ? { name: archetype } : null);

  if (quiz.isPending || (archetype && (products.isPending || profileQuery.isPending)) || essentials.isPending) {
    return <Loading text="Loading your personalized recommendations..." />;
  }
  const profile = profileQuery.data;
  // An essential that one of the archetype's picks already covers (a camera, a microphone) is left out.
  const kit = starterKit(products.data ?? [], essentials.data ?? []);
  if (resultMissing(quiz)) {
    return (
      <ResultGone
        page="Starter Kit"
        what="quiz results"
        days={resultRetentionDays}
        action="Retake the Quiz"
        href="/quiz"
      />
    );
  }
  if (!profile || products.isError || essentials.isError) {
    return (
      <>
        <PageMeta page="Your Starter Kit" description="Your personalized cam model starter kit." noindex />
        <ErrorState
          message="We couldn't load your personalized starter kit. Please try again."
          action="Restart the Quiz"
          href="/quiz"
        />
      </>
    );
  }

  return (
    <article className="starter-kit">
      <PageMeta
        page={`Your ${profile.name} Starter Kit`}
        description={`Lighting, camera, audio and privacy tools picked for the ${profile.name} cam model archetype, plus the essentials every new model needs.`}
      />
      <header className="page-intro">
        <p className="eyebrow">Your personalized starter kit</p>
        <h1>
          <span aria-hidden="true">{profile.emoji}</span> {profile.name}
        </h1>
        <p>{profile.tagline} Here is the gear we would start with.</p>
      </header>

      <section aria-labelledby="kit-persona">
        <h2 id="kit-persona">Picked for the {profile.name}</h2>
        <ProductGrid products={kit.picked} />
      </section>

      <section aria-labelledby="kit-essentials">
        <h2 id="kit-essentials">Essential For All Cam Models</h2>
        <ProductGrid products={kit.essentials} />
      </section>

      <p className="muted small">Buy Now links go to retailers. Prices are guides and change often.</p>

      <section className="next-step">
        <Link href="/learn/1" role="button">
          Start the Free Cam Model Course
        </Link>
        <p>
          <Link href="/plan">See your plan</Link>: the modules to take first and your next step, from what this browser
          remembers.
        </p>
      </section>
    </article>
  );
}

function ProductGrid({ products }: { products: (RecommendedProduct & ImageUrlFit)[] }) {
  const labelId = useId();
  if (products.length === 0) return <p>No products here yet.</p>;
  return (
    <ul className="product-grid">
      {products.map((product) => (
        <li key={product.id} className={product.isDefault ? "product-card featured" : "product-card"}>
          <article>
            {product.imageUrl ? (
              <FitImage
                src={product.imageUrl}
                fit={product.imageFit}
                sizes={IMAGE_SIZES.product}
                alt=""
                loading="lazy"
                className="product-image"
              />
            ) : (
              <div className="product-image placeholder" aria-hidden="true">
                🛍️
              </div>
            )}
            <div className="product-body">
              <p className={`badge badge-${badgeTone(product.badge)}`}>{product.badge}</p>
              <h3>{product.name}</h3>
              <p>{product.description}</p>
              <p className="product-price">{product.price}</p>
              <span className="affiliate-item">
                <a
                  href={placedHref(product.link, "starter-kit")}
                  target="_blank"
                  rel="sponsored noopener"
                  role="button"
                  className="outline"
                  aria-describedby={`${labelId}-${product.id}`}
                >
                  Buy Now<span className="visually-hidden">: {product.name} (opens in a new tab)</span>
                </a>
                <AffiliateLabel id={`${labelId}-${product.id}`} kind="affiliate" />
              </span>
            </div>
          </article>
        </li>
      ))}
    </ul>
  );
}
