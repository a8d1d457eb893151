import { Link, useLocation, useSearch } from "wouter";
import { MODULE_COUNT } from "#shared/features/course/constants.ts";
import { parseModuleId } from "#shared/features/course/course.ts";
import { moduleRead, modulesRead } from "#shared/features/course/reads.ts";
import { OfferCard } from "#web/features/offers/offer-card.tsx";
import { useRead } from "#web/lib/reads.ts";
import { optional, type PageProps, type PageRoute, required } from "#web/page-route.ts";
import { Loading } from "#web/ui/error-state.tsx";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { Curriculum, CurriculumSheet } from "./curriculum.tsx";
import { ModuleQuiz } from "./module-quiz.tsx";
import { TopicViewer, topicIndex } from "./topic-viewer.tsx";

export const route: PageRoute = {
  cache: true,
  // A non-numeric id goes back to the course overview; another spelling of a module's number
  // (/learn/01, /learn/1/, /LEARN/1) moves for good to the one the site writes.
  redirect: ({ params, search, pathname }) => {
    const id = parseModuleId(params.id);
    if (id === null) return { to: "/learn" };
    if (pathname === `/learn/${id}`) return null;
    return { to: `/learn/${id}${search.size > 0 ? `?${search}` : ""}`, permanent: true };
  },
  // The curriculum (every module's lesson titles) is in the first HTML, so it works without scripts.
  loader: ({ params }) => [optional(moduleRead, { id: parseModuleId(params.id) ?? 0 }), required(modulesRead)],
};

/** /learn/{id}, with ?quiz=true opening the module quiz (docs/product.md#module-page). */
export default function ModulePage({ params }: PageProps) {
  const id = parseModuleId(params.id);
  const rawSearch = useSearch();
  const search = new URLSearchParams(rawSearch);
  const quizMode = search.get("quiz") === "true";
  // The module's introduction opens its first lesson; the later lessons start sooner without it.
  const firstLesson = !quizMode && !search.get("topic");
  const [, navigate] = useLocation();
  const module = useRead(moduleRead, id === null ? null : { id });
  const modules = useRead(modulesRead).data ?? [];

  if (module.isPending) return <Loading text="Loading module..." />;
  if (!module.data || id === null) {
    return (
      <section className="status-page">
        <PageMeta page="Module Not Found" description="This course module does not exist." noindex />
        <h1>Module Not Found</h1>
        <p>The requested module doesn't exist. Please return to the course page.</p>
        <Link href="/learn" role="button">
          Back to the course
        </Link>
      </section>
    );
  }
  const data = module.data;
  const lesson = quizMode ? null : topicIndex(rawSearch, data.topics.length) + 1;
  return (
    <article className="module-page course-player">
      <div className="course-main">
        <PageMeta page={`Module ${data.id}: ${data.title}`} description={data.description} />
        <header className="module-header">
          <div className="module-eyebrow">
            <p className="eyebrow">
              <Link href="/learn">Free course</Link> · Module {data.id} of {MODULE_COUNT}
            </p>
            {modules.length > 0 && <CurriculumSheet modules={modules} module={data.id} lesson={lesson} />}
          </div>
          <h1>{data.title}</h1>
          {firstLesson && <p>{data.description}</p>}
        </header>
        {quizMode ? (
          // 'Review This Module Again' returns to the first topic and clears the result.
          <ModuleQuiz key={`quiz-${data.id}`} module={data} onReview={() => navigate(`/learn/${data.id}`)} />
        ) : (
          <TopicViewer key={`topics-${data.id}`} module={data} />
        )}
        {/* Shown at the top of the module as a compact card, but after the lesson in the page's
            order: the keyboard and screen readers reach the lesson before the advert. */}
        <OfferCard moduleId={data.id} page="module" compact />
      </div>
      {modules.length > 0 && (
        // A sidebar on wide screens; on a phone without scripts, the list after the lesson.
        <aside className="curriculum-panel" aria-labelledby="curriculum-title">
          <h2 id="curriculum-title">Course contents</h2>
          <Curriculum modules={modules} module={data.id} lesson={lesson} />
        </aside>
      )}
    </article>
  );
}
