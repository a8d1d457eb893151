import { Link } from "wouter";
import { blogCategoriesRead } from "#shared/features/blog/reads.ts";
import { modulesRead } from "#shared/features/course/reads.ts";
import { useProgress } from "#web/features/progress/store.ts";
import { PlatformButtons } from "#web/features/settings/platform-buttons.tsx";
import { useRead } from "#web/lib/reads.ts";
import { type PageRoute, required } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

export const route: PageRoute = { cache: true, loader: () => [required(modulesRead), required(blogCategoriesRead)] };

/** /resources: the resource library (docs/product.md#resource-library). */
export default function ResourcesPage() {
  const modules = useRead(modulesRead);
  const categories = useRead(blogCategoriesRead);
  // The starter kit of the visitor's last quiz, known only in this browser.
  const quizId = useProgress().progress.quiz?.id;
  const kitHref = quizId ? `/quiz/starter-kit?quizId=${encodeURIComponent(quizId)}` : null;

  return (
    <>
      <PageMeta
        page="Resource Library for New Cam Models"
        description="Platform sign-up links, your personal starter kit, guides by topic and a practical checklist for every module of the free cam model course."
      />
      <header className="page-intro">
        <h1>Resource Library</h1>
        <p>Everything you need to start, in one place: platforms, gear, guides and a checklist for every module.</p>
      </header>

      <PlatformButtons heading="Sign up to a platform" placement="resources" />

      <section aria-labelledby="kit-heading" className="resource-section">
        <h2 id="kit-heading">Your starter kit</h2>
        {kitHref ? (
          <p>
            Lighting, camera, audio and privacy tools picked for your archetype.{" "}
            <Link href={kitHref}>Open your starter kit</Link>
          </p>
        ) : (
          <p>
            Take the 5-minute quiz to find your archetype and get a starter kit picked for it.{" "}
            <Link href="/quiz">Take the quiz</Link>
          </p>
        )}
      </section>

      <section aria-labelledby="guides-heading" className="resource-section">
        <h2 id="guides-heading">Guides by topic</h2>
        <ul className="category-links">
          {(categories.data ?? []).map((c) => (
            <li key={c.slug}>
              <Link href={`/blog?category=${encodeURIComponent(c.slug)}`}>{c.name}</Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="checklists-heading" className="resource-section">
        <h2 id="checklists-heading">Module checklists</h2>
        <div className="checklists">
          {(modules.data ?? []).map((m) => (
            <article key={m.id} className="checklist-card">
              <h3>
                <Link href={`/learn/${m.id}`}>
                  Module {m.id}: {m.title}
                </Link>
              </h3>
              <ul>
                {m.checklist.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </article>
          ))}
        </div>
      </section>
    </>
  );
}
