import { create } from "zustand";
import { EMPTY_PROGRESS, normalise, type Progress } from "./progress.ts";

// The visitor's progress in this browser (docs/product.md#course-progress), one JSON
// value under one local-storage key. The server renders every page with nothing remembered;
// the browser reads the stored value once the page has hydrated (`loadProgress`, from App),
// so the first render matches the server's HTML and pages then show what this device knows.

export const PROGRESS_KEY = "progress";
/** Keys written before progress was one value: read once, folded in, then removed. */
export const OLD_COMPLETED_KEY = "completedModules";
export const OLD_QUIZ_KEY = "lastQuizId";

interface ProgressState {
  progress: Progress;
  /** False until this browser's stored progress has been read (always false on the server). */
  loaded: boolean;
}

export const useProgressStore = create<ProgressState>(() => ({ progress: EMPTY_PROGRESS, loaded: false }));

/** JSON.parse that answers null for text that is not JSON. */
function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function readStored(): Progress {
  try {
    const stored = normalise(parsed(localStorage.getItem(PROGRESS_KEY)));
    const oldCompleted = localStorage.getItem(OLD_COMPLETED_KEY);
    const oldQuiz = localStorage.getItem(OLD_QUIZ_KEY);
    if (oldCompleted === null && oldQuiz === null) return stored;
    // The older keys are folded in as far as they make sense, then removed whatever they held:
    // a broken one must not hide the progress kept beside it.
    const completed = parsed(oldCompleted);
    const merged = normalise({
      ...stored,
      completed: [...stored.completed, ...(Array.isArray(completed) ? completed.map(Number) : [])],
      quiz: stored.quiz ?? (oldQuiz ? { id: oldQuiz, archetype: null } : null),
    });
    localStorage.removeItem(OLD_COMPLETED_KEY);
    localStorage.removeItem(OLD_QUIZ_KEY);
    localStorage.setItem(PROGRESS_KEY, JSON.stringify(merged));
    return merged;
  } catch {
    // Storage blocked: nothing is remembered.
    return EMPTY_PROGRESS;
  }
}

let listening = false;

/** Reads this browser's progress into the store, and follows changes made in other tabs. */
export function loadProgress(): void {
  useProgressStore.setState({ progress: readStored(), loaded: true });
  if (listening || typeof window === "undefined") return;
  listening = true;
  window.addEventListener("storage", (event) => {
    if (event.key === PROGRESS_KEY || event.key === null) useProgressStore.setState({ progress: readStored() });
  });
}

/** Changes the progress and keeps it (for this visit only when storage is blocked). */
export function updateProgress(change: (progress: Progress) => Progress): Progress {
  const current = useProgressStore.getState();
  // A change made before the stored value was read starts from it, not from nothing.
  const base = current.loaded ? current.progress : readStored();
  const next = change(base);
  useProgressStore.setState({ progress: next, loaded: true });
  if (next !== base) {
    try {
      localStorage.setItem(PROGRESS_KEY, JSON.stringify(next));
    } catch {
      // Storage blocked or full: progress lasts for this visit only.
    }
  }
  return next;
}

/** Replaces everything remembered (a resume code's import, or Clear my data). */
export function replaceProgress(progress: Progress): void {
  updateProgress(() => progress);
}

/** Forgets everything in memory (Clear my data has removed the stored value). */
export function forgetProgress(): void {
  useProgressStore.setState({ progress: EMPTY_PROGRESS, loaded: true });
}

/** The visitor's progress and whether it has been read yet, for rendering. */
export function useProgress(): ProgressState {
  return useProgressStore();
}
