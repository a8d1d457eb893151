import { Link } from "wouter";
import type { ModuleSummary } from "#shared/features/course/contract.ts";
import { modulesRead } from "#shared/features/course/reads.ts";
import { isEmpty, type NextStep, nextStep } from "#web/features/progress/progress.ts";
import { useProgress } from "#web/features/progress/store.ts";
import { useRead } from "#web/lib/reads.ts";

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
 * and the resume code beside it. Nothing on the server.
 */
export function ContinueCourse({ className }: { className?: string }) {
  const { progress, loaded } = useProgress();
  const started = loaded && !isEmpty({ ...progress, quiz: null, earnings: null });
  // The titles: in the page's data on /learn; fetched only for a visitor who has started elsewhere.
  const modules = useRead(modulesRead, started ? {} : null).data;
  if (!started) return null;
  const step = nextStep(progress);
  return (
    <div className={className ? `continue-course ${className}` : "continue-course"}>
      <Link href={step.href} role="button">
        Continue where you left off
        <small>{stepLabel(step, modules)}</small>
      </Link>
      <p>
        <Link href="/plan">Your plan</Link> · <Link href="/resume">Continue on another device</Link>
      </p>
    </div>
  );
}
