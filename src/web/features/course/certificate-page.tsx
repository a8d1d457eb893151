import { useId, useState } from "react";
import { Link } from "wouter";
import { MODULE_COUNT, MODULE_IDS } from "#shared/features/course/constants.ts";
import { quizScore } from "#shared/features/course/course.ts";
import { modulesRead } from "#shared/features/course/reads.ts";
import { nextStep, type Progress } from "#web/features/progress/progress.ts";
import { useProgress } from "#web/features/progress/store.ts";
import { useSettings } from "#web/features/settings/queries.ts";
import { useRead } from "#web/lib/reads.ts";
import { type PageRoute, required } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";

// The same for every visitor on the server: whether the course is complete is known in the browser only.
// The modules' titles name each line of the record.
export const route: PageRoute = { cache: true, loader: () => [required(modulesRead)] };

const COURSE_NAME = "Free Cam Model Course";

/**
 * /learn/certificate: a printable certificate once every module is completed in this browser
 * (docs/product.md#certificate). The name is typed here and only drawn on the page: it is in no
 * form, no address and no storage, so it never leaves the browser.
 */
export default function CertificatePage() {
  const { brandName } = useSettings();
  const { progress, loaded } = useProgress();
  const left = MODULE_IDS.filter((id) => !progress.completed.includes(id));

  return (
    <section className="certificate-page">
      <PageMeta
        page="Your Course Certificate"
        description="A printable certificate for completing the free ten-module cam model course."
        noindex
      />
      {!loaded ? (
        <>
          <h1>Your course certificate</h1>
          <p className="when-no-script">
            Your certificate is made in your browser from the progress kept there, so this page needs JavaScript. Turn
            it on for this site, or <Link href="/learn">go to the course</Link>.
          </p>
          <p className="when-script" aria-busy="true">
            Checking your progress on this device…
          </p>
        </>
      ) : left.length > 0 ? (
        <>
          <h1>Your course certificate</h1>
          <p className="lead">
            Your certificate is ready when all {MODULE_COUNT} modules are complete.{" "}
            {left.length === 1 ? "You have 1 module left" : `You have ${left.length} modules left`} (Module{" "}
            {left.join(", ")}).
          </p>
          <div className="button-row">
            <Link href={nextStep(progress).href} role="button">
              Continue the course
            </Link>
          </div>
        </>
      ) : (
        <Certificate brandName={brandName} progress={progress} />
      )}
    </section>
  );
}

/**
 * What this device records, and nothing more: every module completed, with the score of its
 * quiz's latest answers (retries included). The quizzes are practice the learner scores for
 * themselves, so the record says so rather than certifying an assessment.
 */
function Certificate({ brandName, progress }: { brandName: string; progress: Progress }) {
  const titles = new Map(useRead(modulesRead).data?.map((m) => [m.id, m.title]));
  const [name, setName] = useState("");
  const nameId = useId();
  // Rendered only in the browser (after progress is read), so the date is the visitor's own day.
  const date = new Date().toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });

  return (
    <>
      <div className="certificate-controls">
        <h1>Your course certificate</h1>
        <p>
          Type the name you want on it. It stays on this screen: it is not sent anywhere and not saved, so it is gone
          when you leave this page.
        </p>
        <label htmlFor={nameId}>Your name</label>
        <input
          id={nameId}
          type="text"
          value={name}
          maxLength={80}
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
        />
        <div className="button-row">
          <button type="button" onClick={() => window.print()}>
            Print or save as PDF
          </button>
          <Link href="/learn/complete" role="button" className="secondary outline">
            Back to your graduation
          </Link>
        </div>
      </div>
      <article className="certificate" aria-label="Certificate">
        <p className="certificate-kicker">Course completion record</p>
        <p className="certificate-name">{name.trim() || "\u00a0"}</p>
        <p>
          completed all {MODULE_COUNT} modules of the
          <br />
          <strong className="certificate-course">
            {brandName} {COURSE_NAME}
          </strong>
        </p>
        <ul className="certificate-modules">
          {MODULE_IDS.map((id) => {
            const quiz = progress.quizzes[id];
            return (
              <li key={id}>
                Module {id}
                {titles.has(id) ? `: ${titles.get(id)}` : ""}
                {" – "}
                {quiz
                  ? `quiz ${quizScore(quiz.correct, quiz.total)}% (${quiz.correct} of ${quiz.total})`
                  : "no quiz score kept"}
              </li>
            );
          })}
        </ul>
        <p className="certificate-note">
          Self-reported: recorded on the learner's own device. Each score counts the latest answer to every question,
          retries included. The quizzes are practice, not an exam, and this record is not a qualification.
        </p>
        <p className="certificate-date">{date}</p>
      </article>
    </>
  );
}
