import { type MouseEvent, useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import { spellAnswers } from "#shared/answers.ts";
import { useScripted } from "#web/lib/scripted.ts";
import { revealHeading } from "#web/lib/scroll.ts";
import { StepProgress } from "./step-progress.tsx";
import { forgetUnfinished, keepUnfinished, type UnfinishedKey, WizardResume } from "./wizard-resume.tsx";

interface WizardOption<V extends string | number> {
  value: V;
  label: string;
  emoji?: string;
}

interface WizardQuestion<V extends string | number> {
  id: number;
  question: string;
  options: WizardOption<V>[];
}

interface WizardProps<V extends string | number> {
  questions: WizardQuestion<V>[];
  /** The answers in the address: the wizard shows the question after them. */
  answered: readonly V[];
  /** The address of the step after these answers (`?answers=` spelled with `spellAnswers`). */
  href: (answers: readonly V[]) => string;
  /**
   * The page's own address, where each step's form goes without JavaScript: by GET to
   * the next step, and from the last step by POST with all the answers (scored on the server).
   */
  action: string;
  /** Other fields every step's form sends along (the quiz result a calculation belongs to). */
  fields?: Record<string, string>;
  /** Called with the answers by position once the last question is answered. */
  onFinish: (answers: V[]) => Promise<void> | void;
  busy?: boolean;
  /** Where this tab keeps the answers so far, and how to read them back (the address's rule). */
  resume: { storageKey: UnfinishedKey; parse: (spelled: string) => V[] | null };
}

// Choosing an option moves on by itself after 500 ms, 800 ms on the last step.
export const AUTO_ADVANCE_MS = 500;
export const AUTO_ADVANCE_LAST_MS = 800;

/**
 * The 15-step wizard shared by the archetype quiz and the earnings calculator. Each step
 * has its own address (the answers so far), so reload keeps it and Back goes to the
 * previous question. It is a form that works without JavaScript: every option's value
 * is the answers with it, sent by GET to the page's address (the next step), and the
 * last step POSTs them there. With JavaScript the same form moves on in the page.
 */
export function Wizard<V extends string | number>({
  questions,
  answered,
  href,
  action,
  fields = {},
  onFinish,
  busy = false,
  resume,
}: WizardProps<V>) {
  const [, navigate] = useLocation();
  // Answers beyond the address (after Previous or Back) are remembered while the page stays.
  const [memory, setMemory] = useState<(V | undefined)[]>(() => questions.map((_, i) => answered[i]));
  // Until the page's script runs, CONTINUE stays enabled: without JavaScript it submits the form.
  const live = useScripted();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const root = useRef<HTMLFormElement>(null);
  const moved = useRef(false);
  // Arrow keys move through a radio group and select as they go: browsing that way must
  // not move on by itself. Space and clicks still auto-advance.
  const arrowed = useRef(false);

  const total = questions.length;
  const step = Math.min(answered.length, total - 1);
  const answers = questions.map((_, i) => (i < answered.length ? answered[i] : memory[i]));
  const question = questions[step]!;
  const chosen = answers[step];
  const last = step === total - 1;
  const percent = Math.round(((step + 1) / total) * 100);
  const before = answers.slice(0, step) as V[];

  const cancelTimer = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
  };
  // The answers so far are kept for this tab, so leaving through the site's links and coming
  // back to the first question offers to continue.
  const spelled = spellAnswers(answered);
  useEffect(() => {
    if (spelled) keepUnfinished(resume.storageKey, spelled);
  }, [spelled, resume.storageKey]);

  useEffect(() => {
    // Unmounting cancels a pending auto-advance.
    return () => clearTimeout(timer.current ?? undefined);
  }, []);

  useEffect(() => {
    // Keyboard and screen-reader users land on the new question, not on the page body,
    // and on a phone its heading is in view below the header, from the progress above it
    // (which question of how many).
    if (moved.current)
      revealHeading(heading.current, root.current?.querySelector<HTMLElement>(".wizard-progress") ?? null);
    moved.current = false;
  }, [step]);

  function go(to: (V | undefined)[], count: number) {
    setMemory(to);
    moved.current = root.current?.contains(document.activeElement) ?? false;
    navigate(href(to.slice(0, count) as V[]));
  }

  function next(current: (V | undefined)[]) {
    cancelTimer();
    if (current[step] === undefined || busy) return;
    if (last) {
      forgetUnfinished(resume.storageKey);
      void onFinish(current as V[]);
      return;
    }
    go(current, step + 1);
  }

  function previous(event: MouseEvent) {
    event.preventDefault();
    cancelTimer();
    if (busy) return;
    go(answers, step - 1);
    moved.current = true;
  }

  function choose(value: V) {
    const updated = answers.slice();
    updated[step] = value;
    setMemory(updated);
    cancelTimer();
    if (arrowed.current) {
      arrowed.current = false;
      return;
    }
    timer.current = setTimeout(() => next(updated), last ? AUTO_ADVANCE_LAST_MS : AUTO_ADVANCE_MS);
  }

  return (
    <form
      className="wizard"
      ref={root}
      method={last ? "post" : "get"}
      action={action}
      onSubmit={(e) => {
        e.preventDefault();
        next(answers);
      }}
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
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
                // The answers with this one: what the form sends as the next step's address.
                name="answers"
                value={spellAnswers([...before, option.value])}
                checked={chosen === option.value}
                onChange={() => choose(option.value)}
                // The answer already chosen (after PREVIOUS or Back), tapped again: no change
                // event, but the visitor means to go on with it.
                onClick={() => {
                  if (chosen === option.value) choose(option.value);
                }}
                disabled={busy}
                required
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
        {step === 0 ? (
          <button type="button" className="secondary outline" disabled>
            PREVIOUS
          </button>
        ) : (
          <a
            href={href(before.slice(0, -1))}
            role="button"
            className="secondary outline"
            aria-disabled={busy || undefined}
            onClick={previous}
          >
            PREVIOUS
          </a>
        )}
        <button type="submit" disabled={live && (chosen === undefined || busy)} aria-busy={busy}>
          {last ? "SEE RESULTS" : "CONTINUE"}
        </button>
      </div>
      {step === 0 && chosen === undefined && (
        <WizardResume
          storageKey={resume.storageKey}
          parse={resume.parse}
          href={href}
          total={total}
          onStartAgain={() => revealHeading(heading.current)}
        />
      )}
    </form>
  );
}
