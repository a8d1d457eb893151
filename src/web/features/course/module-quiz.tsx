import { type ReactNode, type RefObject, useEffect, useRef, useState } from "react";
import { Link, useSearch } from "wouter";
import type { CourseModule, QuizOutcome } from "#shared/features/course/contract.ts";
import { afterModule, passed, quizScore, scoreMessage } from "#shared/features/course/course.ts";
import { withModuleQuiz } from "#web/features/progress/progress.ts";
import { updateProgress } from "#web/features/progress/store.ts";
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

/** The outcome of a quiz sent as a form: every question answered in the address (a1..a5), else null. */
function sentOutcome(moduleId: number, questions: Question[], answers: (string | null)[]): QuizOutcome | null {
  if (questions.length === 0 || questions.some((_, i) => !answers[i])) return null;
  const correct = questions.filter((q, i) => answers[i] === q.correctAnswer).length;
  return outcomeOf(moduleId, correct, questions.length);
}

/**
 * The module quiz (docs/product.md#module-quiz): choose, submit (then locked, with the
 * explanation), next, complete. Without scripts it is one form of every question, sent to
 * the module's address and scored when that page is rendered.
 */
export function ModuleQuiz({ module, onReview }: { module: CourseModule; onReview: () => void }) {
  const questions = module.quiz?.questions ?? [];
  const search = new URLSearchParams(useSearch());
  const answers = quizAnswerNames.map((name) => search.get(name));
  const scripted = useScripted();
  const [index, setIndex] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [submitted, setSubmitted] = useState(false);
  const [correct, setCorrect] = useState(0);
  const [outcome, setOutcome] = useState<QuizOutcome | null>(null);
  const quizHeading = useRef<HTMLHeadingElement>(null);
  const questionHeading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const countLine = useRef<HTMLParagraphElement>(null);
  const navRow = useRef<HTMLDivElement>(null);

  useEffect(() => {
    // Arriving from 'Start Module n Quiz' shows the quiz's title, not the top of the page;
    // a first load keeps the browser's own position.
    if (afterFirstRender()) revealHeading(quizHeading.current);
  }, []);

  useEffect(() => {
    // After 'Next Question' keyboard and screen-reader users land on the new question,
    // shown from its count line.
    if (moved.current) revealHeading(questionHeading.current, countLine.current);
  }, [index]);

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
  if (outcome) return <ResultPanel outcome={outcome} onReview={onReview} />;
  const sent = sentOutcome(module.id, questions, answers);
  if (sent) {
    return (
      <ResultPanel outcome={sent} onReview={onReview}>
        <SentAnswers questions={questions} answers={answers} />
      </ResultPanel>
    );
  }
  if (!scripted) return <QuizForm module={module} questions={questions} answers={answers} heading={quizHeading} />;

  const question = questions[index]!;
  const last = index === questions.length - 1;
  const right = selected === question.correctAnswer;

  function submit() {
    if (!selected || submitted) return;
    setSubmitted(true);
    if (selected === question.correctAnswer) setCorrect((c) => c + 1);
  }

  function next() {
    if (last) {
      setOutcome(outcomeOf(module.id, correct, questions.length));
      return;
    }
    moved.current = true;
    setIndex(index + 1);
    setSelected(null);
    setSubmitted(false);
  }

  return (
    <section className="module-quiz" aria-labelledby="quiz-heading">
      <h2 id="quiz-heading" ref={quizHeading} tabIndex={-1}>
        Module {module.id} Quiz
      </h2>
      <p className="wizard-count" ref={countLine}>
        <span>
          Question {index + 1} of {questions.length}
        </span>
      </p>
      <fieldset className="wizard-question" key={question.id} aria-labelledby={`mq-${question.id}`}>
        <h3 id={`mq-${question.id}`} ref={questionHeading} tabIndex={-1}>
          {question.question}
        </h3>
        <div className="wizard-options">
          {question.options.map((option) => {
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
                <OptionText option={option} />
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
            {last ? "Complete Quiz" : "Next Question"}
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
          <strong>{`Correct! You chose ${answer.id}: “${answer.text}”`}</strong>
        </p>
        <p>{answer.explanation}</p>
      </>
    );
  return (
    <>
      <p>
        <strong>{mine ? `Not quite. You chose ${mine.id}: “${mine.text}”` : "Not answered."}</strong>
      </p>
      {mine && <p>{mine.explanation}</p>}
      <p>
        <strong>{`The right answer is ${answer.id}: “${answer.text}”`}</strong>
      </p>
      <p>{answer.explanation}</p>
    </>
  );
}

/** Every question at once, as a form sent to the module's own address (no scripts needed). */
function QuizForm({
  module,
  questions,
  answers,
  heading,
}: {
  module: CourseModule;
  questions: Question[];
  answers: (string | null)[];
  heading: RefObject<HTMLHeadingElement | null>;
}) {
  return (
    <section className="module-quiz" aria-labelledby="quiz-heading">
      <h2 id="quiz-heading" ref={heading} tabIndex={-1}>
        Module {module.id} Quiz
      </h2>
      <form method="get" action={`/learn/${module.id}`} className="module-quiz-form">
        <input type="hidden" name="quiz" value="true" />
        {questions.map((question, i) => (
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
                    defaultChecked={answers[i] === option.id}
                    required
                  />
                  <OptionText option={option} />
                </label>
              ))}
            </div>
          </fieldset>
        ))}
        <div className="wizard-nav">
          <button type="submit">Complete Quiz</button>
        </div>
      </form>
    </section>
  );
}

/** After a quiz sent as a form: each question with the visitor's answer, the right one and why. */
function SentAnswers({ questions, answers }: { questions: Question[]; answers: (string | null)[] }) {
  return (
    <ol className="sent-answers">
      {questions.map((question, i) => {
        const right = answers[i] === question.correctAnswer;
        return (
          <li key={question.id} className={right ? "answer-feedback correct" : "answer-feedback wrong"}>
            <p>{question.question}</p>
            <AnswerFeedback question={question} chosen={answers[i] ?? null} />
          </li>
        );
      })}
    </ol>
  );
}

/** The result panel. The quiz is not gated: Continue works at any score. */
function ResultPanel({
  outcome,
  onReview,
  children,
}: {
  outcome: QuizOutcome;
  onReview: () => void;
  children?: ReactNode;
}) {
  useEffect(() => {
    updateProgress((progress) =>
      withModuleQuiz(progress, outcome.moduleId, {
        correct: outcome.correctAnswers,
        total: outcome.totalQuestions,
        answers: [],
      }),
    );
  }, [outcome]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // The panel replaces the quiz after 'Complete Quiz': its score is what the visitor sees and hears next.
    revealHeading(heading.current);
  }, []);
  const ok = passed(outcome.score);
  return (
    <section className="result-panel" aria-labelledby="result-heading" role="status">
      <h2 id="result-heading" ref={heading} tabIndex={-1}>
        Your score: {outcome.score}%
      </h2>
      <p>
        {outcome.correctAnswers} of {outcome.totalQuestions} correct.
      </p>
      <p className="score-message">
        <strong>{scoreMessage(outcome.score)}</strong>
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
      <div className="button-row">
        <Link href={afterModule(outcome.moduleId)} role="button">
          Continue
        </Link>
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
      {children}
    </section>
  );
}
