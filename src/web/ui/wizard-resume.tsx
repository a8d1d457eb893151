import { useEffect, useState } from "react";
import { Link } from "wouter";

// A wizard's unfinished answers, kept for this tab only (session storage): leaving the quiz
// through the site's own links and coming back offers to continue where the visitor stopped.
// Closing the tab forgets them, and "Clear my data" removes them with everything else.

/** The session-storage key of a wizard's unfinished answers. */
export const UNFINISHED_KEYS = {
  quiz: "unfinished-quiz",
  earnings: "unfinished-earnings",
} as const;
export type UnfinishedKey = (typeof UNFINISHED_KEYS)[keyof typeof UNFINISHED_KEYS];

function read(key: UnfinishedKey): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    // Storage blocked: nothing is remembered.
    return null;
  }
}

/** Keeps the answers so far (none left to give: the visitor is still on the way). */
export function keepUnfinished(key: UnfinishedKey, spelled: string): void {
  try {
    sessionStorage.setItem(key, spelled);
  } catch {
    // blocked or full: the offer to continue is a convenience
  }
}

/** Forgets them: the result is saved, or the visitor starts again. */
export function forgetUnfinished(key: UnfinishedKey): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // blocked: nothing was kept
  }
}

interface Props<V> {
  storageKey: UnfinishedKey;
  /** The kept answers as the address spells them, or null when they are not valid answers. */
  parse: (spelled: string) => V[] | null;
  /** The address of the step after these answers. */
  href: (answers: readonly V[]) => string;
  total: number;
  /** Where the focus goes after "Start again": the first question. */
  onStartAgain: () => void;
}

/**
 * On a wizard's first question, for a visitor who left it part-way in this tab: "Continue
 * (question 11 of 15)" or "Start again". It is fixed at the foot of the screen, so it appears
 * after the page loads without moving what is already shown.
 */
export function WizardResume<V>({ storageKey, parse, href, total, onStartAgain }: Props<V>) {
  const [kept, setKept] = useState<V[] | null>(null);
  useEffect(() => {
    const spelled = read(storageKey);
    const answers = spelled === null ? null : parse(spelled);
    if (answers && answers.length > 0 && answers.length < total) setKept(answers);
  }, [storageKey, parse, total]);
  if (!kept) return null;
  return (
    <section className="wizard-resume" aria-labelledby="wizard-resume-text">
      <p id="wizard-resume-text">
        You answered {kept.length} of {total} questions earlier in this tab.
      </p>
      <div className="button-row">
        <Link href={href(kept)} role="button" onClick={() => setKept(null)}>
          Continue (question {kept.length + 1} of {total})
        </Link>
        <button
          type="button"
          className="secondary outline"
          onClick={() => {
            forgetUnfinished(storageKey);
            setKept(null);
            onStartAgain();
          }}
        >
          Start again
        </button>
      </div>
    </section>
  );
}
