import { Link } from "wouter";
import { ContinueCourse } from "#web/features/course/continue-course.tsx";
import { useSettings } from "#web/features/settings/queries.ts";
import type { PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

export const route: PageRoute = { cache: true };

const FEATURES = [
  {
    emoji: "🎭",
    title: "Discover Your Style",
    description:
      "Answer 15 quick questions and meet the one of 10 cam model archetypes that fits your personality, comfort zone and goals.",
    button: "Take the Quiz",
    href: "/quiz",
  },
  {
    emoji: "💰",
    title: "Calculate Earnings",
    description:
      "Tell us about your schedule, setup and ambitions to get an honest monthly income range and the levers that move it.",
    button: "Get Started",
    href: "/quiz/earnings",
  },
  {
    emoji: "🎓",
    title: "Learn the Ropes",
    description:
      "A free ten-module course on safety, setup, engagement, money and avoiding burnout, with a short quiz after every module.",
    button: "Start the Course",
    href: "/learn-more",
  },
];

export default function HomePage() {
  const { incomeFigure, modelsHelpedFigure, testimonialQuote, testimonialAttribution } = useSettings();
  // The figures are the operator's claims (site settings, stored trimmed): an empty one is not
  // shown. The quiz's length is a fact about this site, so it always is.
  const stats = [
    { value: incomeFigure, label: "Potential monthly income for top performers" },
    { value: "5 min", label: "To find your cam model persona" },
    { value: modelsHelpedFigure, label: "Cam models helped" },
  ].filter((s) => s.value);
  return (
    <>
      <PageMeta
        page="Discover Your Webcam Alter Ego"
        description="Find your cam model alter ego: take the 5-minute quiz to meet your archetype, estimate your income and start the free course on how to begin safely and succeed."
      />
      <section className="hero">
        <h1>Find your cam model alter ego</h1>
        <p className="lead">
          Which of 10 cam model archetypes are you? Find out in five minutes, get an honest earnings estimate from your
          goals and availability, then learn how to start and succeed with our free course.
        </p>
        <div className="button-row">
          <Link href="/quiz" role="button">
            START THE QUIZ
          </Link>
          <Link href="/learn-more" role="button" className="secondary outline">
            LEARN MORE<span className="visually-hidden"> about the free course</span>
          </Link>
        </div>
        {/* For a visitor who has started the course on this device, once its progress is read. */}
        <ContinueCourse />
      </section>

      <section aria-labelledby="features-heading">
        <h2 id="features-heading" className="visually-hidden">
          What you can do here
        </h2>
        <div className="card-grid">
          {FEATURES.map((f) => (
            <article key={f.title} className="feature-card">
              <p className="feature-emoji" aria-hidden="true">
                {f.emoji}
              </p>
              <h3>{f.title}</h3>
              <p>{f.description}</p>
              <Link href={f.href} role="button" className="outline">
                {f.button}
              </Link>
            </article>
          ))}
        </div>
      </section>

      {testimonialQuote && (
        <section aria-labelledby="testimonial-heading">
          <h2 id="testimonial-heading" className="visually-hidden">
            A member's story
          </h2>
          <figure className="testimonial">
            <blockquote>“{testimonialQuote}”</blockquote>
            <figcaption>
              {testimonialAttribution && `— ${testimonialAttribution}. `}
              <small>One member's experience; results vary.</small>
            </figcaption>
          </figure>
        </section>
      )}

      <section className="cta" aria-labelledby="cta-heading">
        <h2 id="cta-heading">Set yourself up for success — don't just jump in</h2>
        <p>
          A persona that suits you, a realistic income target and a plan for your safety make the first months far
          easier. The quiz and the calculator take about ten minutes together.
        </p>
        <Link href="/quiz" role="button">
          Find Your Cam Model Persona
        </Link>
      </section>

      <section aria-labelledby="stats-heading">
        <h2 id="stats-heading" className="visually-hidden">
          In numbers
        </h2>
        <ul className="stats">
          {stats.map((s) => (
            <li key={s.label}>
              <strong>{s.value}</strong>
              <span>{s.label}</span>
            </li>
          ))}
        </ul>
      </section>

      <div className="mobile-only mobile-cta">
        <Link href="/quiz" role="button">
          GET STARTED NOW
        </Link>
      </div>
    </>
  );
}
