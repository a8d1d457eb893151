import { Link } from "wouter";
import { MODULE_COUNT } from "#shared/features/course/constants.ts";
import { modulesRead } from "#shared/features/course/reads.ts";
import { useProgress } from "#web/features/progress/store.ts";
import { PlatformButtons } from "#web/features/settings/platform-buttons.tsx";
import { useRead } from "#web/lib/reads.ts";
import { type PageRoute, required } from "#web/page-route.ts";
import { Loading } from "#web/ui/error-state.tsx";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { ContinueCourse } from "./continue-course.tsx";

export const route: PageRoute = { cache: true, loader: () => [required(modulesRead)] };

/** /learn: the course overview (docs/product.md#course-overview). */
export default function LearnPage() {
  const modules = useRead(modulesRead);
  // Progress lives in this browser only, so it is read after hydration.
  const { progress } = useProgress();
  const completed = progress.completed;

  return (
    <>
      <PageMeta
        page={`Free Cam Model Course: ${MODULE_COUNT} Modules`}
        description="A free ten-module course for new cam models: safety and privacy, persona, equipment, engagement, money and taxes, tools, fan clubs, burnout and long-term goals."
      />
      <section className="hero">
        <h1>The Free Cam Model Course</h1>
        <p className="lead">
          Ten practical modules, fifty short lessons and a quiz after each module. Learn to start safely, look and sound
          great, earn steadily and stay in control, at your own pace.
        </p>
        <div className="button-row">
          <Link href="/learn/1" role="button">
            Start the Course
          </Link>
        </div>
        <ContinueCourse>
          {completed.length > 0 && (
            <p className="muted">
              You have completed {completed.length} of {modules.data?.length ?? MODULE_COUNT} modules.
            </p>
          )}
        </ContinueCourse>
      </section>

      <section aria-labelledby="modules-heading">
        <h2 id="modules-heading">Module breakdown</h2>
        {!modules.data ? (
          <Loading text="Loading the course..." />
        ) : (
          <ol className="module-list">
            {modules.data.map((module) => {
              const done = completed.includes(module.id);
              const read = progress.read[module.id]?.length ?? 0;
              return (
                <li key={module.id}>
                  <details className={done ? "module-card completed" : "module-card"}>
                    <summary>
                      <span className="module-number">Module {module.id}</span> {module.title}
                      {done && (
                        <span className="badge badge-accent completed-badge">
                          <span aria-hidden="true">✓ </span>Completed
                        </span>
                      )}
                      {read > 0 && (
                        <span className="module-read-count">
                          {read} of {module.topics.length} lessons read
                        </span>
                      )}
                    </summary>
                    <p>{module.description}</p>
                    <h3>What you'll learn</h3>
                    <ul>
                      {module.topics.map((topic) => (
                        <li key={topic.id}>{topic.title}</li>
                      ))}
                    </ul>
                    <Link href={`/learn/${module.id}`} role="button">
                      Start Course Now<span className="visually-hidden">: module {module.id}</span>
                    </Link>
                  </details>
                </li>
              );
            })}
          </ol>
        )}
      </section>

      <PlatformButtons heading="Ready to put it into practice? Join a platform" placement="learn" />
    </>
  );
}
