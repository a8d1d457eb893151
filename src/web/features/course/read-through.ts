import { type RefObject, useEffect } from "react";
import { METRICS } from "#shared/features/analytics/constants.ts";
import { report } from "#web/features/analytics/beacon.ts";
import { withLastLesson, withLessonRead } from "#web/features/progress/progress.ts";
import { updateProgress } from "#web/features/progress/store.ts";

/** How long a lesson must stay open before it can count as read (docs/product.md#module-page). */
export const READ_THROUGH_MS = 15_000;

/**
 * Opening a lesson remembers it as the one opened last; it counts as read once its end has
 * been on screen and it has been open for READ_THROUGH_MS, in either order. Runs in the
 * browser only (effects), so the server's HTML knows nothing of it.
 */
export function useReadThrough(module: number, lesson: number, end: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    updateProgress((progress) => withLastLesson(progress, module, lesson));
    let seen = false;
    let timeUp = false;
    const target = end.current;
    const observer =
      typeof IntersectionObserver === "function" && target
        ? new IntersectionObserver((entries) => {
            if (!entries.some((entry) => entry.isIntersecting)) return;
            seen = true;
            observer?.disconnect();
            done();
          })
        : null;
    // A browser that cannot tell what is on screen counts the time alone.
    if (observer && target) observer.observe(target);
    else seen = true;
    const timer = setTimeout(() => {
      timeUp = true;
      done();
    }, READ_THROUGH_MS);
    function done() {
      if (!(seen && timeUp)) return;
      updateProgress((progress) => withLessonRead(progress, module, lesson));
      report(METRICS.lessonRead, `${module}/${lesson}`);
    }
    return () => {
      clearTimeout(timer);
      observer?.disconnect();
    };
  }, [module, lesson, end]);
}
