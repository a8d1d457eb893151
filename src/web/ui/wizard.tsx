import { useEffect, useRef, useState } from "react";
import { StepProgress } from "./step-progress.tsx";

export interface WizardOption<V extends string | number> {
  value: V;
  label: string;
  emoji?: string;
}

export interface WizardQuestion<V extends string | number> {
  id: number;
  question: string;
  options: WizardOption<V>[];
}

interface WizardProps<V extends string | number> {
  questions: WizardQuestion<V>[];
  /** Called with the answers by position once the last question is answered. */
  onFinish: (answers: V[]) => Promise<void> | void;
  busy?: boolean;
}

// Choosing an option moves on by itself after 500 ms, 800 ms on the last step.
export const AUTO_ADVANCE_MS = 500;
export const AUTO_ADVANCE_LAST_MS = 800;

/** The 15-step wizard shared by the archetype quiz and the earnings calculator. */
export function Wizard<V extends string | number>({ questions, onFinish, busy = false }: WizardProps<V>) {
  const [step, setStep] = useState(0);
  const [answers, setAnswers] = useState<(V | undefined)[]>(() => questions.map(() => undefined));
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  // Arrow keys move through a radio group and select as they go: browsing that way must
  // not move on by itself. Space and clicks still auto-advance.
  const arrowed = useRef(false);

  const total = questions.length;
  const question = questions[step]!;
  const chosen = answers[step];
  const last = step === total - 1;
  const percent = Math.round(((step + 1) / total) * 100);

  const cancelTimer = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  // Unmounting cancels a pending auto-advance.
  useEffect(() => () => clearTimeout(timer.current ?? undefined), []);

  useEffect(() => {
    // Keyboard and screen-reader users land on the new question, not on the page body.
    if (moved.current) heading.current?.focus();
  }, [step]);

  function next(current: (V | undefined)[]) {
    cancelTimer();
    if (current[step] === undefined || busy) return;
    if (last) {
      void onFinish(current as V[]);
      return;
    }
    moved.current = root.current?.contains(document.activeElement) ?? false;
    setStep((s) => Math.min(s + 1, total - 1));
  }

  function previous() {
    cancelTimer();
    moved.current = true;
    setStep((s) => Math.max(s - 1, 0));
  }

  function choose(value: V) {
    const updated = answers.slice();
    updated[step] = value;
    setAnswers(updated);
    cancelTimer();
    if (arrowed.current) {
      arrowed.current = false;
      return;
    }
    timer.current = setTimeout(() => next(updated), last ? AUTO_ADVANCE_LAST_MS : AUTO_ADVANCE_MS);
  }

  return (
    <div className="wizard" ref={root}>
      <StepProgress
        count={
          <>
            Question {step + 1}/{total}
          </>
        }
        percent={percent}
        label="Quiz progress"
      />

      <fieldset
        className="wizard-question"
        key={question.id}
        aria-labelledby={`q-${question.id}`}
        onKeyDown={(e) => {
          arrowed.current = e.key.startsWith("Arrow");
        }}
      >
        <h2 id={`q-${question.id}`} ref={heading} tabIndex={-1}>
          {question.question}
        </h2>
        <div className="wizard-options">
          {question.options.map((option) => (
            <label
              key={String(option.value)}
              className={chosen === option.value ? "wizard-option selected" : "wizard-option"}
            >
              <input
                type="radio"
                name={`question-${question.id}`}
                value={String(option.value)}
                checked={chosen === option.value}
                onChange={() => choose(option.value)}
                disabled={busy}
              />
              {option.emoji && (
                <span className="wizard-emoji" aria-hidden="true">
                  {option.emoji}
                </span>
              )}
              <span>{option.label}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className="wizard-nav">
        <button type="button" className="secondary outline" onClick={previous} disabled={step === 0 || busy}>
          PREVIOUS
        </button>
        <button type="button" onClick={() => next(answers)} disabled={chosen === undefined || busy} aria-busy={busy}>
          {last ? "SEE RESULTS" : "CONTINUE"}
        </button>
      </div>
    </div>
  );
}
