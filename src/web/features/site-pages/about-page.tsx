import { Link } from "wouter";
import outline from "#content/course/outline.json" with { type: "json" };
import { prefersReducedMotion } from "#web/lib/scroll.ts";
import type { PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

export const route: PageRoute = { cache: true };

export default function AboutPage() {
  function scrollToDetails() {
    const target = document.getElementById("course-details");
    target?.scrollIntoView({ behavior: prefersReducedMotion() ? "auto" : "smooth" });
    target?.focus({ preventScroll: true });
  }

  return (
    <>
      <PageMeta
        page="About the Free Cam Model Course"
        description="A free ten-module course for new webcam models: safety and privacy, persona, equipment, engagement, money and taxes, tools, fan clubs, burnout and long-term goals."
      />
      <section className="hero">
        <h1>About the free cam model course</h1>
        <p className="lead">
          Ten short modules take you from “is this for me?” to running camming like a small business: safely, on your
          own terms, and with a plan.
        </p>
        <div className="button-row">
          <Link href="/learn" role="button">
            Start the Free Course
          </Link>
          <Link href="/quiz" role="button" className="secondary outline">
            Discover Your Cam Style First
          </Link>
        </div>
        <button type="button" className="scroll-arrow outline secondary" onClick={scrollToDetails}>
          <span aria-hidden="true">↓</span> What the course covers
        </button>
      </section>

      <section id="course-details" tabIndex={-1} aria-labelledby="course-details-heading">
        <h2 id="course-details-heading">What the course covers</h2>
        <p>
          Each module has five lessons with a practical pro tip, and ends with a five-question quiz that explains every
          answer. Nothing is gated: skip ahead, go back, and take the quizzes when you are ready.
        </p>
        <ol className="module-outline">
          {outline.map((m) => (
            <li key={m.id}>{m.title}</li>
          ))}
        </ol>
      </section>

      <section aria-labelledby="principles-heading">
        <h2 id="principles-heading">How we teach</h2>
        <ul>
          <li>
            <strong>Safety first.</strong> Privacy, consent and boundaries come before lighting and tip menus.
          </li>
          <li>
            <strong>Honest numbers.</strong> Income depends on hours, consistency and promotion; we show ranges, not
            promises, and remind you to set 25–30% aside for taxes.
          </li>
          <li>
            <strong>Sustainable work.</strong> A whole module is about preventing burnout and staying in control.
          </li>
          <li>
            <strong>Free and private.</strong> No sign-up, no trackers; your progress stays in your browser.
          </li>
        </ul>
        <p>
          <Link href="/learn" role="button">
            Go to the course
          </Link>
        </p>
      </section>
    </>
  );
}
