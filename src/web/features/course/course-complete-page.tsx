import type { ReactNode } from "react";
import { Link } from "wouter";
import { MODULE_COUNT, MODULE_IDS } from "#shared/features/course/constants.ts";
import { modulesRead } from "#shared/features/course/reads.ts";
import { useProgress } from "#web/features/progress/store.ts";
import { useSettings } from "#web/features/settings/queries.ts";
import { useRead } from "#web/lib/reads.ts";
import { type PageRoute, required } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

export const route: PageRoute = { cache: true, loader: () => [required(modulesRead)] };

const SKILLS = [
  "Protecting your privacy and setting firm boundaries",
  "Building a persona and brand that feel like you",
  "Lighting, camera, audio and a stable connection",
  "Confident, engaging shows and loyal regulars",
  "Tip menus, goals, fan clubs and content sales",
  "Setting 25–30% aside for taxes and keeping records",
  "Spotting burnout early and protecting your time",
  "Goals, numbers and a plan for the long term",
];

/**
 * /learn/complete: the graduation page (docs/product.md#graduation-page) once every module
 * is completed in this browser; before that, what is done and what is left. Progress lives
 * in the browser only, so the server (and a browser without scripts) shows the module list.
 */
export default function CompletePage() {
  // null: not read yet (the server render and the first render in the browser).
  const { progress, loaded } = useProgress();
  const completed = loaded ? progress.completed : null;

  if (completed !== null && MODULE_IDS.every((id) => completed.includes(id))) return <Graduation />;
  return <CourseProgress completed={completed} />;
}

function CourseProgress({ completed }: { completed: number[] | null }) {
  const modules = useRead(modulesRead);
  const titles = new Map(modules.data?.map((m) => [m.id, m.title]));
  const item = (id: number) => (
    <li key={id}>
      <Link href={`/learn/${id}`}>
        Module {id}
        {titles.has(id) ? `: ${titles.get(id)}` : ""}
      </Link>
    </li>
  );
  const done = completed === null ? [] : MODULE_IDS.filter((id) => completed.includes(id));
  const left = completed === null ? MODULE_IDS : MODULE_IDS.filter((id) => !completed.includes(id));

  return (
    <section className="course-progress">
      <PageMeta
        page="Your Course Progress"
        description="Your progress in the free ten-module cam model course, and the modules still to take."
      />
      <header className="hero">
        <h1>Your course progress</h1>
        {completed === null ? (
          <p className="lead">
            Your progress is kept in this browser only. Complete the quiz at the end of each of the {MODULE_COUNT}{" "}
            modules to reach your graduation.
          </p>
        ) : (
          <p className="lead">
            {done.length === 0
              ? "You have not completed a module yet. Start whenever you are ready: each module takes a few minutes."
              : `You have completed ${done.length} of ${MODULE_COUNT} modules. Finish the rest to reach your graduation.`}
          </p>
        )}
      </header>

      {done.length > 0 && (
        <section aria-labelledby="done-heading">
          <h2 id="done-heading">Completed</h2>
          <ul>{done.map(item)}</ul>
        </section>
      )}
      <section aria-labelledby="left-heading">
        <h2 id="left-heading">{completed === null ? "The modules" : "Still to do"}</h2>
        <ul>{left.map(item)}</ul>
      </section>

      <NextStep>
        {completed !== null && left[0] !== undefined && (
          <Link href={`/learn/${left[0]}`} role="button">
            {done.length === 0 ? "Start Module 1" : `Continue with Module ${left[0]}`}
          </Link>
        )}
      </NextStep>
    </section>
  );
}

interface Gift {
  emoji: string;
  title: string;
  text: ReactNode;
  action: string;
  href: string;
  /** Another site: opened in a new tab. */
  external?: boolean;
}

/** The graduation itself, for a visitor who completed every module. */
function Graduation() {
  // The starter kit of the visitor's last quiz, known only in the browser.
  const quizId = useProgress().progress.quiz?.id;
  const kitHref = quizId ? `/quiz/starter-kit?quizId=${encodeURIComponent(quizId)}` : "/quiz";

  const { giftDiscountCode, giftDiscountPartner, giftDiscountPercent, communityUrl } = useSettings();
  // Only gifts that exist: the discount and the community are shown once the owner set them.
  const gifts: Gift[] = [
    ...(giftDiscountCode && giftDiscountPercent
      ? [
          {
            emoji: "🎁",
            title: "Starter Kit Discount",
            text: (
              <>
                {giftDiscountPercent}% off at {giftDiscountPartner} with the code <code>{giftDiscountCode}</code>. Your
                starter kit lists what to buy first.
              </>
            ),
            action: "Get My Starter Kit",
            href: kitHref,
          },
        ]
      : []),
    {
      emoji: "📚",
      title: "Resource Library",
      text: "Sign-up links, your starter kit, our guides and a checklist for every module, all in one place.",
      action: "Open the Library",
      href: "/resources",
    },
    ...(communityUrl
      ? [
          {
            emoji: "💬",
            title: "Community Access",
            text: "Meet other performers and ask questions in the community this site recommends. It is another site, with its own rules.",
            action: "Join the Community",
            href: communityUrl,
            external: true,
          },
        ]
      : []),
  ];

  return (
    <section className="graduation">
      <PageMeta page="Congratulations, Graduate!" description="You completed the free ten-module cam model course." />
      <header className="hero">
        <p className="result-emoji" aria-hidden="true">
          🎓
        </p>
        <h1>Congratulations</h1>
        <p className="lead">You have completed all ten modules of the free cam model course.</p>
      </header>

      <div className="grid-2">
        <section aria-labelledby="skills-heading">
          <h2 id="skills-heading">Skills you gained</h2>
          <ul>
            {SKILLS.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="next-steps-heading">
          <h2 id="next-steps-heading">Next steps</h2>
          <ol>
            <li>Finish your safety set-up: stage name, separate accounts, two-factor sign-in.</li>
            <li>Test your light, sound and upload speed at the time you plan to stream.</li>
            <li>Write your tip menu and your yes/no/maybe list.</li>
            <li>Pick a schedule you can keep, with at least one day off a week.</li>
            <li>Go live, then review what worked after your first five shows.</li>
          </ol>
        </section>
      </div>

      <section aria-labelledby="gifts-heading">
        <h2 id="gifts-heading">Your graduation gifts</h2>
        <div className="card-grid">
          {gifts.map((g) => (
            <article key={g.title} className="feature-card">
              <p className="feature-emoji" aria-hidden="true">
                {g.emoji}
              </p>
              <h3>{g.title}</h3>
              <p>{g.text}</p>
              {g.external ? (
                <a href={g.href} role="button" className="outline" target="_blank" rel="noopener noreferrer">
                  {g.action}
                  <span className="visually-hidden"> (opens another site in a new tab)</span>
                </a>
              ) : (
                <Link href={g.href} role="button" className="outline">
                  {g.action}
                </Link>
              )}
            </article>
          ))}
        </div>
      </section>

      <section aria-labelledby="certificate-heading">
        <h2 id="certificate-heading">Your certificate</h2>
        <p>Print a certificate with your name on it, or save it as a PDF. Your name stays on your device.</p>
        <Link href="/learn/certificate" role="button" className="outline">
          Get your certificate
        </Link>
      </section>

      <NextStep>
        <Link href="/resources" role="button">
          Start Your Career
        </Link>
      </NextStep>
    </section>
  );
}

/** The foot of both states: back to the courses, the step after this page, and the resume code. */
function NextStep({ children }: { children: ReactNode }) {
  return (
    <>
      <div className="button-row next-step">
        <Link href="/learn" role="button" className="secondary outline">
          Back to Courses
        </Link>
        {children}
      </div>
      <p className="muted">
        On another phone or computer? <Link href="/resume">Carry your progress there with a resume code</Link>.
      </p>
    </>
  );
}
