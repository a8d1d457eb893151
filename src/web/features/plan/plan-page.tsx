import { Link } from "wouter";
import type { ModuleSummary } from "#shared/features/course/contract.ts";
import { modulesRead } from "#shared/features/course/reads.ts";
import { PLAN_SIZE, planModules } from "#shared/features/plan/plan.ts";
import { ALL_ARCHETYPES } from "#shared/features/products/constants.ts";
import { starterKit } from "#shared/features/products/kit.ts";
import { productsRead } from "#shared/features/products/reads.ts";
import { quizResultRead } from "#shared/features/quiz/reads.ts";
import { type NextStep, nextStep, type Progress } from "#web/features/progress/progress.ts";
import { useProgress } from "#web/features/progress/store.ts";
import { useRead } from "#web/lib/reads.ts";
import { type PageRoute, required } from "#web/page-route.ts";
import { Loading } from "#web/ui/error-state.tsx";
import { PageMeta } from "#web/ui/page-meta.tsx";

// The server knows nothing about the visitor: it renders the same page for everyone (the
// course titles only), and the plan itself is put together in the browser once its stored
// progress has been read.
export const route: PageRoute = { cache: true, loader: () => [required(modulesRead)] };

/** How many starter-kit items the plan names. */
const KIT_ITEMS = 3;

/** /plan: the modules to take first, the first starter-kit items and the next step (docs/product.md#your-plan). */
export default function PlanPage() {
  const { progress, loaded } = useProgress();
  const modules = useRead(modulesRead);

  return (
    <article className="plan">
      <PageMeta
        page="Your Plan"
        description="Your plan for the free cam model course: the modules to take first, the first items of your starter kit and your next lesson, put together in your browser."
        // A page about one visitor's progress: nothing in it is for a search engine.
        noindex
      />
      <header className="page-intro">
        <p className="eyebrow">Your plan</p>
        <h1>Your plan</h1>
        <p>
          The modules to take first, the first items of your starter kit and your next step in the course, from your
          persona quiz, your earnings estimate and the lessons you have read.
        </p>
      </header>
      {loaded ? <PersonalPlan progress={progress} modules={modules.data ?? null} /> : <GeneralPlan />}
    </article>
  );
}

/** What the server sends (and what a browser without JavaScript keeps): how the plan is made, and where to start. */
function GeneralPlan() {
  return (
    <section aria-labelledby="plan-how">
      <h2 id="plan-how">How your plan is made</h2>
      <p>
        Your plan is put together in this browser from the results it keeps: your persona quiz, your earnings estimate
        and the lessons you have read. Nothing about you is sent to us to make it. It needs JavaScript; without it, the
        quiz and the course work just the same.
      </p>
      <div className="button-row">
        <Link href="/quiz" role="button">
          Take the 5-minute persona quiz
        </Link>
        <Link href="/learn" role="button" className="outline">
          Go to the course
        </Link>
      </div>
    </section>
  );
}

function PersonalPlan({ progress, modules }: { progress: Progress; modules: ModuleSummary[] | null }) {
  const quizId = progress.quiz?.id ?? null;
  // A result kept before archetypes were remembered holds its id only: ask for its archetype.
  const saved = useRead(quizResultRead, quizId && !progress.quiz?.archetype ? { id: quizId } : null);
  const archetype = progress.quiz?.archetype ?? saved.data?.archetype ?? null;
  const tier = progress.earnings?.tier ?? null;
  const picks = planModules(archetype, tier);
  const titles = new Map((modules ?? []).map((m) => [m.id, m.title]));
  const done = picks.filter((pick) => progress.completed.includes(pick.module)).length;

  return (
    <>
      <section aria-labelledby="plan-known">
        <h2 id="plan-known">What your plan is built from</h2>
        <ul>
          <li>
            Persona: {archetype ? <strong>{archetype}</strong> : "not known yet. "}
            {!archetype && <Link href="/quiz">Take the 5-minute persona quiz</Link>}
          </li>
          <li>
            Earnings tier: {tier ? <strong>{tier}</strong> : "not known yet. "}
            {!tier && (
              <Link href={quizId ? `/quiz/earnings?quizId=${encodeURIComponent(quizId)}` : "/quiz/earnings"}>
                Try the earnings calculator
              </Link>
            )}
          </li>
        </ul>
        <p className="muted small">
          Your plan is put together in this browser from what it keeps; the answers behind your result and estimate are
          saved on the server under a random id (see the privacy policy). Taking the quiz or the calculator again
          updates it.
        </p>
      </section>

      {picks.length > 0 && (
        <section aria-labelledby="plan-modules">
          <h2 id="plan-modules">Modules to take first</h2>
          <ol className="plan-modules">
            {picks.map((pick) => {
              const isDone = progress.completed.includes(pick.module);
              return (
                <li key={pick.module} className={isDone ? "module-card completed" : "module-card"}>
                  <Link href={`/learn/${pick.module}`}>
                    Module {pick.module}: {titles.get(pick.module) ?? "open the module"}
                  </Link>
                  {isDone && (
                    <span className="badge badge-accent completed-badge">
                      <span aria-hidden="true">✓ </span>Done
                    </span>
                  )}
                  <p className="small">{pick.reason}</p>
                </li>
              );
            })}
          </ol>
          <p>
            {done === 0
              ? "Start with any of them: they are the ones that fit you best."
              : done === picks.length
                ? `You have finished ${picks.length === PLAN_SIZE ? "all three" : "these"}. Well done: carry on with the rest of the course.`
                : `You have finished ${done} of ${picks.length}.`}
          </p>
        </section>
      )}

      {archetype && quizId && <KitItems archetype={archetype} quizId={quizId} />}

      <section aria-labelledby="plan-next">
        <h2 id="plan-next">Your next step in the course</h2>
        <NextStepLink step={nextStep(progress)} modules={modules} />
      </section>
    </>
  );
}

function KitItems({ archetype, quizId }: { archetype: string; quizId: string }) {
  const picked = useRead(productsRead, { archetype });
  const essentials = useRead(productsRead, { archetype: ALL_ARCHETYPES });
  const kit = starterKit(picked.data ?? [], essentials.data ?? []);
  const items = [...kit.picked, ...kit.essentials].slice(0, KIT_ITEMS);
  return (
    <section aria-labelledby="plan-kit">
      <h2 id="plan-kit">Your first starter-kit items</h2>
      {picked.isPending || essentials.isPending ? (
        <Loading text="Loading your starter kit..." />
      ) : items.length === 0 ? (
        <p>We couldn't load your starter kit just now.</p>
      ) : (
        <ol>
          {items.map((item) => (
            <li key={item.id}>
              <strong>{item.name}</strong> <span className="muted">({item.price})</span>
            </li>
          ))}
        </ol>
      )}
      <p>
        <Link href={`/quiz/starter-kit?quizId=${encodeURIComponent(quizId)}`}>See your full starter kit</Link>
      </p>
    </section>
  );
}

function NextStepLink({ step, modules }: { step: NextStep; modules: ModuleSummary[] | null }) {
  if (step.kind === "done")
    return (
      <>
        <p>You have finished every module. Well done.</p>
        <Link href={step.href} role="button">
          See your course completion
        </Link>
      </>
    );
  const module = modules?.find((m) => m.id === step.module);
  const label =
    step.kind === "quiz"
      ? `Module ${step.module} quiz: ${module?.title ?? ""}`
      : `Module ${step.module}, lesson ${step.lesson}: ${module?.topics[step.lesson - 1]?.title ?? ""}`;
  return (
    <>
      <p>{step.kind === "start" ? "Start the course here:" : "Pick up where you are:"}</p>
      <Link href={step.href} role="button">
        {label.replace(/: $/, "")}
      </Link>
    </>
  );
}
