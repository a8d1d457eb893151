import { type RefObject, useCallback, useEffect, useRef, useState } from "react";
import { Link, useSearch } from "wouter";
import { METRICS } from "#shared/features/analytics/constants.ts";
import type { CourseModule, QuizOutcome } from "#shared/features/course/contract.ts";
import { afterModule, passed, quizScore, scoreMessage } from "#shared/features/course/course.ts";
import {
  type Answer,
  missedQuestions,
  retryAddress,
  retryFromAddress,
  rightCount,
  shuffledOptions,
} from "#shared/features/course/quiz-review.ts";
import { report } from "#web/features/analytics/beacon.ts";
import { withModuleQuiz } from "#web/features/progress/progress.ts";
import { updateProgress, useProgress } from "#web/features/progress/store.ts";
import { isPlainClick } from "#web/lib/clicks.ts";
import { useScripted } from "#web/lib/scripted.ts";
import { afterFirstRender, bringIntoView, revealHeading } from "#web/lib/scroll.ts";
import { quizAnswerNames } from "#web/routes.ts";

type Question = NonNullable<CourseModule["quiz"]>["questions"][number];

/** A finished quiz: `correct` right answers out of `total`. */
function outcomeOf(moduleId: number, correct: number, total: number): QuizOutcome {
  return {
    moduleId,
    score: quizScore(correct, total),
    totalQuestions: total,
    correctAnswers: correct,
    completed: true,
  };
}

/** A run of the quiz: the questions it asks, the latest answer to each question, and whether it is a retry. */
interface Run {
  asked: number[];
  given: (Answer | null)[];
  retry: boolean;
  /** Each question's options in the order this run shows them (by question index). */
  order: Answer[][];
  /** The whole quiz taken again on a device that holds its result: its answers were revealed before. */
  again?: boolean;
  /** A review of the record this device already keeps: nothing new to store. */
  review?: boolean;
}

/** A new order of every question's options for a run, none the same as the previous run's. */
function newOrder(questions: Question[], previous: Answer[][] | null): Answer[][] {
  return questions.map((q, i) =>
    shuffledOptions(
      q.options.map((o) => o.id),
      previous?.[i] ?? null,
    ),
  );
}

/**
 * The module quiz (docs/product.md#module-quiz): choose, submit (then locked, with the
 * explanation), next, complete; then the result, a review of every question and a retry
 * of the ones missed. Without scripts it is one form of every question (or of the missed
 * ones), sent to the module's address and scored when that page is rendered.
 */
export function ModuleQuiz({ module, onReview }: { module: CourseModule; onReview: () => void }) {
  const questions = module.quiz?.questions ?? [];
  const search = new URLSearchParams(useSearch());
  const answers = quizAnswerNames.map((name) => search.get(name) as Answer | null);
  const retried = retryFromAddress(questions, answers, search.get("retry"));
  const scripted = useScripted();
  const { progress, loaded } = useProgress();
  // One run of the quiz: the questions it asks (all, or the missed ones of a retry) and
  // the latest answer to every question.
  // The options are shuffled in the browser only: this state is shown once scripts run.
  const [run, setRun] = useState<Run>(() => ({
    asked: retried ?? questions.map((_, i) => i),
    given: retried ? questions.map((_, i) => answers[i] ?? null) : questions.map(() => null),
    retry: retried !== null,
    order: newOrder(questions, null),
  }));
  // Set once a retry starts in the page: the answers in the address are left behind.
  const [inPage, setInPage] = useState(false);
  const [round, setRound] = useState(0);
  const [step, setStep] = useState(0);
  const [selected, setSelected] = useState<Answer | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [finished, setFinished] = useState(false);
  const quizHeading = useRef<HTMLHeadingElement>(null);
  const questionHeading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const countLine = useRef<HTMLParagraphElement>(null);
  const navRow = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Arriving from 'Start Module n Quiz' shows the quiz's title, not the top of the page;
    // a first load keeps the browser's own position. A retry started here does the same.
    if (round > 0 || afterFirstRender()) revealHeading(quizHeading.current);
  }, [round]);

  useEffect(() => {
    // After 'Next Question' keyboard and screen-reader users land on the new question,
    // shown from its count line.
    if (moved.current) revealHeading(questionHeading.current, countLine.current);
  }, [step]);

  useEffect(() => {
    // After 'Submit Answer' the feedback and the button that goes on (which keeps the
    // focus) are on screen.
    if (submitted) bringIntoView(navRow.current);
  }, [submitted]);

  if (questions.length === 0) {
    return (
      <section className="status-page" aria-labelledby="quiz-na">
        <h2 id="quiz-na">Quiz Not Available</h2>
        <p>This module's quiz is currently being updated.</p>
        <Link href={afterModule(module.id)} role="button">
          Continue
        </Link>
      </section>
    );
  }

  /** Asks again, in this page, the questions `given` got wrong. */
  function retry(given: (Answer | null)[]) {
    moved.current = false;
    setRun({ asked: missedQuestions(questions, given), given, retry: true, order: newOrder(questions, run.order) });
    setInPage(true);
    setStep(0);
    setSelected(null);
    setSubmitted(false);
    setFinished(false);
    setRound((r) => r + 1);
  }

  if (finished)
    return (
      <QuizResult
        module={module}
        questions={questions}
        given={run.given}
        retried={run.retry ? run.asked : null}
        afterReveal={run.retry || run.again === true}
        keep={run.review ? "kept" : "now"}
        onReview={onReview}
        onRetry={() => retry(run.given)}
      />
    );
  const sent = !inPage && questions.every((_, i) => answers[i]);
  if (sent)
    return (
      <QuizResult
        module={module}
        questions={questions}
        given={answers}
        retried={retried}
        afterReveal={retried !== null}
        // Answers from the address (a form sent without scripts, or a link someone sent) are
        // kept only when the visitor asks: a link alone never replaces a record.
        keep="ask"
        onReview={onReview}
        onRetry={() => retry(answers)}
      />
    );
  if (!scripted)
    return <QuizForm module={module} questions={questions} answers={answers} asked={retried} heading={quizHeading} />;

  // This module's quiz finished before on this device, with every answer kept: offered
  // before the first question of a fresh run.
  const before = progress.quizzes[module.id];
  const last =
    loaded && !inPage && !run.retry && step === 0 && !submitted && before?.answers.length === questions.length
      ? before
      : null;
  const index = run.asked[step] ?? 0;
  const question = questions[index]!;
  const lastStep = step === run.asked.length - 1;
  const right = selected === question.correctAnswer;

  function submit() {
    if (!selected || submitted) return;
    setSubmitted(true);
    setRun((r) => ({
      ...r,
      given: r.given.map((a, i) => (i === index ? selected : a)),
      // The device holds this quiz's result, answers revealed: this run is taken again.
      again: r.again ?? (!r.retry && progress.quizzes[module.id] !== undefined),
    }));
  }

  function next() {
    if (lastStep) {
      setFinished(true);
      return;
    }
    moved.current = true;
    setStep(step + 1);
    setSelected(null);
    setSubmitted(false);
  }

  return (
    <section className="module-quiz" aria-labelledby="quiz-heading">
      <h2 id="quiz-heading" ref={quizHeading} tabIndex={-1}>
        {run.retry ? `Module ${module.id} Quiz: the ones you missed` : `Module ${module.id} Quiz`}
      </h2>
      {last && (
        <div className="quiz-last">
          <p>
            {`Last time on this device you scored ${quizScore(last.correct, last.total)}% (${last.correct} of ${last.total} correct).`}
          </p>
          <button
            type="button"
            className="secondary outline"
            onClick={() => {
              setRun({
                asked: questions.map((_, i) => i),
                given: last.answers,
                retry: false,
                order: run.order,
                review: true,
              });
              setFinished(true);
            }}
          >
            Review my answers
          </button>
        </div>
      )}
      <p className="wizard-count" ref={countLine}>
        <span>
          {run.retry
            ? `Retry ${step + 1} of ${run.asked.length} (question ${index + 1} of ${questions.length})`
            : `Question ${index + 1} of ${questions.length}`}
        </span>
      </p>
      <fieldset className="wizard-question" key={`${round}-${question.id}`} aria-labelledby={`mq-${question.id}`}>
        <h3 id={`mq-${question.id}`} ref={questionHeading} tabIndex={-1}>
          {question.question}
        </h3>
        <div className="wizard-options">
          {(run.order[index] ?? []).map((id) => {
            const option = question.options.find((o) => o.id === id);
            if (!option) return null;
            const state = submitted
              ? option.id === question.correctAnswer
                ? "correct"
                : option.id === selected
                  ? "wrong"
                  : ""
              : "";
            return (
              <label key={option.id} className={`wizard-option ${selected === option.id ? "selected" : ""} ${state}`}>
                <input
                  type="radio"
                  name={`module-quiz-${question.id}`}
                  value={option.id}
                  checked={selected === option.id}
                  onChange={() => setSelected(option.id)}
                  disabled={submitted}
                />
                {/* No letter: the order changes with every attempt, so a letter would name nothing. */}
                <span>{option.text}</span>
              </label>
            );
          })}
        </div>
      </fieldset>

      {submitted && (
        <div className={right ? "answer-feedback correct" : "answer-feedback wrong"} role="status">
          <AnswerFeedback question={question} chosen={selected} />
        </div>
      )}

      <div className="wizard-nav" ref={navRow}>
        {submitted ? (
          <button type="button" onClick={next}>
            {lastStep ? "Complete Quiz" : "Next Question"}
          </button>
        ) : (
          <button type="button" onClick={submit} disabled={!selected}>
            Submit Answer
          </button>
        )}
      </div>
    </section>
  );
}

/** An answer's letter and text, as both forms of the quiz show it. */
function OptionText({ option }: { option: Question["options"][number] }) {
  return (
    <span>
      <strong>{option.id}.</strong> {option.text}
    </span>
  );
}

/**
 * Why the chosen option is right or wrong, each option named by its letter and text; after a
 * wrong answer, the right option and why it is right.
 */
function AnswerFeedback({ question, chosen }: { question: Question; chosen: string | null }) {
  const mine = question.options.find((o) => o.id === chosen);
  const answer = question.options.find((o) => o.id === question.correctAnswer);
  if (!answer) return null;
  if (mine?.id === answer.id)
    return (
      <>
        <p>
          <strong>{`Correct! You chose “${answer.text}”`}</strong>
        </p>
        <p>{answer.explanation}</p>
      </>
    );
  return (
    <>
      <p>
        <strong>{mine ? `Not quite. You chose “${mine.text}”` : "Not answered."}</strong>
      </p>
      {mine && <p>{mine.explanation}</p>}
      <p>
        <strong>{`The right answer is “${answer.text}”`}</strong>
      </p>
      <p>{answer.explanation}</p>
    </>
  );
}

/**
 * Every question at once (or, for a retry, the missed ones, the other answers standing as
 * hidden fields), as a form sent to the module's own address (no scripts needed).
 */
function QuizForm({
  module,
  questions,
  answers,
  asked,
  heading,
}: {
  module: CourseModule;
  questions: Question[];
  answers: (Answer | null)[];
  asked: number[] | null;
  heading: RefObject<HTMLHeadingElement | null>;
}) {
  const shown = (i: number) => !asked || asked.includes(i);
  return (
    <section className="module-quiz" aria-labelledby="quiz-heading">
      <h2 id="quiz-heading" ref={heading} tabIndex={-1}>
        {asked ? `Module ${module.id} Quiz: the ones you missed` : `Module ${module.id} Quiz`}
      </h2>
      <form method="get" action={`/learn/${module.id}`} className="module-quiz-form">
        <input type="hidden" name="quiz" value="true" />
        {asked && <input type="hidden" name="retry" value={asked.map((i) => i + 1).join("")} />}
        {questions.map((question, i) =>
          shown(i) ? (
            <fieldset className="wizard-question" key={question.id} aria-labelledby={`mq-${question.id}`}>
              <h3 id={`mq-${question.id}`}>
                <span className="wizard-count">
                  Question {i + 1} of {questions.length}:
                </span>{" "}
                {question.question}
              </h3>
              <div className="wizard-options">
                {question.options.map((option) => (
                  <label key={option.id} className="wizard-option">
                    <input
                      type="radio"
                      name={quizAnswerNames[i]}
                      value={option.id}
                      defaultChecked={!asked && answers[i] === option.id}
                      required
                    />
                    <OptionText option={option} />
                  </label>
                ))}
              </div>
            </fieldset>
          ) : (
            <input key={question.id} type="hidden" name={quizAnswerNames[i]} value={answers[i] ?? ""} />
          ),
        )}
        <div className="wizard-nav">
          <button type="submit">Complete Quiz</button>
        </div>
      </form>
    </section>
  );
}

/**
 * A finished quiz (or retry): the result panel, the review of every question, and the
 * retry of the ones missed. `given` is the latest answer to every question.
 */
function QuizResult({
  module,
  questions,
  given,
  retried,
  afterReveal,
  keep,
  onReview,
  onRetry,
}: {
  module: CourseModule;
  questions: Question[];
  given: (Answer | null)[];
  retried: number[] | null;
  /** Taken after its answers were revealed: a retry, or the quiz taken again. */
  afterReveal: boolean;
  keep: Keep;
  onReview: () => void;
  onRetry: () => void;
}) {
  const correct = rightCount(questions, given);
  const outcome = outcomeOf(module.id, correct, questions.length);
  const missed = missedQuestions(questions, given);
  const href = retryAddress(module.id, questions, given, quizAnswerNames);
  return (
    <>
      <ResultPanel
        outcome={outcome}
        answers={given.slice(0, questions.length).filter((a): a is Answer => a !== null)}
        retry={retried ? { asked: retried.length, right: rightCount(questions, given, retried) } : null}
        afterReveal={afterReveal}
        keep={keep}
        onReview={onReview}
        retryNow={href ? { href, missed: missed.length, onRetry } : null}
      />
      <section className="quiz-review" aria-labelledby="review-heading">
        <h2 id="review-heading">Review your answers</h2>
        <ol className="review-list">
          {questions.map((question, i) => (
            <ReviewQuestion
              key={question.id}
              question={question}
              number={i + 1}
              total={questions.length}
              chosen={given[i] ?? null}
            />
          ))}
        </ol>
        {href && (
          <div className="review-retry">
            <p>
              {missed.length === 1
                ? "You missed one question. Try it again: your right answers stand."
                : `You missed ${missed.length} questions. Try just those again: your right answers stand.`}
            </p>
            <a
              href={href}
              role="button"
              onClick={(event) => {
                if (!isPlainClick(event)) return;
                event.preventDefault();
                onRetry();
              }}
            >
              Retry the ones I missed
            </a>
          </div>
        )}
      </section>
    </>
  );
}

/**
 * One question of the review: whether it was right, then every option with its
 * explanation, the visitor's and the right one named in words (not by colour alone).
 */
function ReviewQuestion({
  question,
  number,
  total,
  chosen,
}: {
  question: Question;
  number: number;
  total: number;
  chosen: Answer | null;
}) {
  const mine = question.options.find((o) => o.id === chosen);
  const answer = question.options.find((o) => o.id === question.correctAnswer);
  const right = mine !== undefined && mine.id === answer?.id;
  return (
    <li className={right ? "review-question correct" : "review-question wrong"}>
      <h3>
        <span className="wizard-count">
          Question {number} of {total}
        </span>{" "}
        {question.question}
      </h3>
      <p className="review-verdict">
        <span aria-hidden="true">{right ? "✓ " : "✗ "}</span>
        <strong>
          {right
            ? `Correct! You chose ${mine.id}: “${mine.text}”`
            : mine
              ? `Not quite. You chose ${mine.id}: “${mine.text}”`
              : "Not answered."}
        </strong>
      </p>
      {!right && answer && (
        <p className="review-verdict">
          <strong>{`The right answer is ${answer.id}: “${answer.text}”`}</strong>
        </p>
      )}
      <ul className="review-options">
        {question.options.map((option) => {
          const isMine = option.id === chosen;
          const isRight = option.id === question.correctAnswer;
          return (
            <li key={option.id} className={`review-option${isRight ? " right" : isMine ? " mine" : ""}`}>
              <p>
                <OptionText option={option} />
                {(isMine || isRight) && (
                  <span className="review-tags">
                    {isMine && <span className="review-tag">Your answer</span>}
                    {isRight && <span className="review-tag">Right answer</span>}
                  </span>
                )}
              </p>
              <p className="review-why">{option.explanation}</p>
            </li>
          );
        })}
      </ul>
    </li>
  );
}

/**
 * Whether a result goes into this device's progress: "now" for a quiz finished in this page,
 * "kept" when it is the record already kept, "ask" for answers that came in the address.
 */
type Keep = "now" | "kept" | "ask";

/**
 * The result panel. The quiz is not gated: Continue works at any score. It stores the
 * module's record: the latest answer to every question and the score they make.
 */
function ResultPanel({
  outcome,
  answers,
  retry,
  afterReveal,
  keep,
  onReview,
  retryNow,
}: {
  outcome: QuizOutcome;
  answers: Answer[];
  retry: { asked: number; right: number } | null;
  afterReveal: boolean;
  keep: Keep;
  onReview: () => void;
  /** The retry of the missed questions, offered here too: after a long review its own button is far below. */
  retryNow: { href: string; missed: number; onRetry: () => void } | null;
}) {
  const scripted = useScripted();
  const kept = useProgress().progress.quizzes[outcome.moduleId];
  const stored = answers.join("");
  const [saved, setSaved] = useState(false);
  const ok = passed(outcome.score);
  // A finished quiz (a retry finishes it again) is counted once per result shown.
  useEffect(() => {
    if (stored) report(METRICS.moduleQuiz, `${outcome.moduleId}/${ok ? "passed" : "failed"}`);
  }, [outcome.moduleId, stored, ok]);
  const record = useCallback(
    () =>
      updateProgress((progress) =>
        withModuleQuiz(progress, outcome.moduleId, {
          correct: outcome.correctAnswers,
          total: outcome.totalQuestions,
          answers: stored.split("") as Answer[],
        }),
      ),
    [outcome.moduleId, outcome.correctAnswers, outcome.totalQuestions, stored],
  );
  useEffect(() => {
    if (keep === "now") record();
  }, [keep, record]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // The panel replaces the quiz after 'Complete Quiz': its score is what the visitor sees and hears next.
    revealHeading(heading.current);
  }, []);
  return (
    <section className="result-panel" aria-labelledby="result-heading" role="status">
      <h2 id="result-heading" ref={heading} tabIndex={-1}>
        Your score: {outcome.score}%
      </h2>
      {retry && (
        <p>
          {`This retry: ${retry.right} of ${retry.asked} right. Your score counts your latest answer to each question.`}
        </p>
      )}
      <p>
        {outcome.correctAnswers} of {outcome.totalQuestions} correct.
      </p>
      <p className="score-message">
        <strong>{scoreMessage(outcome.score, { afterReveal })}</strong>
      </p>
      <p>
        {ok
          ? `You've successfully completed Module ${outcome.moduleId}!`
          : "We recommend reviewing this module before you move on, but you can continue whenever you are ready."}
      </p>
      <p className="when-no-script">
        Without JavaScript this browser keeps no course progress, so the course overview will not show this module as
        done. Your result above still counts for your own learning.
      </p>
      {scripted && keep === "ask" && (
        <p className="quiz-keep">
          {saved ? (
            "Saved to your progress on this device."
          ) : (
            <>
              This result came from the page's address, so it is not in your progress yet.
              {kept &&
                ` Saving it replaces the score this device keeps for this module: ${quizScore(kept.correct, kept.total)}% (${kept.correct} of ${kept.total} correct).`}{" "}
              <button
                type="button"
                className="secondary outline"
                onClick={() => {
                  record();
                  setSaved(true);
                }}
              >
                Save it to my progress
              </button>
            </>
          )}
        </p>
      )}
      <div className="button-row">
        <Link href={afterModule(outcome.moduleId)} role="button">
          Continue
        </Link>
        {retryNow && (
          <a
            href={retryNow.href}
            role="button"
            className="secondary"
            onClick={(event) => {
              if (!isPlainClick(event)) return;
              event.preventDefault();
              retryNow.onRetry();
            }}
          >
            {retryNow.missed === 1 ? "Retry the one I missed" : `Retry the ${retryNow.missed} I missed`}
          </a>
        )}
        <a
          href={`/learn/${outcome.moduleId}`}
          role="button"
          className="secondary outline"
          onClick={(event) => {
            event.preventDefault();
            onReview();
          }}
        >
          Review This Module Again
        </a>
      </div>
    </section>
  );
}
