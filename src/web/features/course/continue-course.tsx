import { type ReactNode, useEffect } from "react";
import { Link } from "wouter";
import type { ModuleSummary } from "#shared/features/course/contract.ts";
import { modulesRead } from "#shared/features/course/reads.ts";
import { isEmpty, type NextStep, nextStep } from "#web/features/progress/progress.ts";
import { useProgress } from "#web/features/progress/store.ts";
import { useRead } from "#web/lib/reads.ts";
import { RETURNING_ATTRIBUTE } from "#web/theme-script.ts";

/** Where the link goes, in words: the module and the lesson's title (when the titles are known). */
function stepLabel(step: NextStep, modules: ModuleSummary[] | undefined): string {
  if (step.kind === "done") return "Every module is finished: your graduation page";
  if (step.kind === "quiz") return `Module ${step.module}: the module quiz`;
  const title = modules?.find((m) => m.id === step.module)?.topics[step.lesson - 1]?.title;
  return `Module ${step.module}, lesson ${step.lesson}${title ? `: ${title}` : ""}`;
}

/**
 * "Continue where you left off", once this browser's progress is read and a lesson was opened
 * or read (or a module quiz finished): a link to the exact next step, with the visitor's plan
 * and the resume code beside it. Nothing on the server. It sits in a slot the server always
 * renders (with `children`, a page's own line about the progress), whose space CSS reserves
 * from the first paint for a returning visitor (the head script's data-returning), so neither
 * arrives by pushing the page down.
 */
export function ContinueCourse({ children }: { children?: ReactNode }) {
  const { progress, loaded } = useProgress();
  const started = loaded && !isEmpty({ ...progress, quiz: null, earnings: null });
  // The titles: in the page's data on /learn; fetched only for a visitor who has started elsewhere.
  const modules = useRead(modulesRead, started ? {} : null).data;
  const returning = !loaded ? null : !started ? "" : progress.completed.length ? "completed" : "course";
  // The mark follows what this page now knows (progress cleared, or carried in by a resume code).
  useEffect(() => {
    if (returning === null) return;
    const root = document.documentElement;
    if (returning) root.setAttribute(RETURNING_ATTRIBUTE, returning);
    else root.removeAttribute(RETURNING_ATTRIBUTE);
  }, [returning]);
  const step = started ? nextStep(progress) : null;
  return (
    <div className={children === undefined ? "continue-course-slot" : "continue-course-slot with-progress-line"}>
      {step && (
        <div className="continue-course">
          <Link href={step.href} role="button">
            Continue where you left off
            <small>{stepLabel(step, modules)}</small>
          </Link>
          <p>
            <Link href="/plan">Your plan</Link> · <Link href="/resume">Continue on another device</Link>
          </p>
        </div>
      )}
      {children}
    </div>
  );
}
