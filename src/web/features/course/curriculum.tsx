import { useRef, useState } from "react";
import { Link } from "wouter";
import type { ModuleSummary } from "#shared/features/course/contract.ts";
import { lessonHref } from "#shared/features/course/course.ts";
import { isLessonRead } from "#web/features/progress/progress.ts";
import { useProgress } from "#web/features/progress/store.ts";
import { useModalDialog } from "#web/ui/modal-dialog.ts";

interface CurriculumProps {
  modules: ModuleSummary[];
  /** The module shown; its lessons are listed open. */
  module: number;
  /** The lesson shown (1-based), or null when the page shows the module's quiz. */
  lesson: number | null;
  /** Called after a lesson link is followed (the phone sheet closes). */
  onFollow?: () => void;
}

/**
 * Every module and its lessons, the one shown marked as the current page; once this browser's
 * progress is read, a tick on each lesson read and a count per module (the server's HTML has none).
 */
export function Curriculum({ modules, module, lesson, onFollow }: CurriculumProps) {
  const { progress, loaded } = useProgress();
  return (
    <nav className="curriculum" aria-label="Course contents">
      <ol>
        {modules.map((m) => {
          const read = loaded ? m.topics.filter((_, i) => isLessonRead(progress, m.id, i + 1)).length : 0;
          return (
            <li key={m.id}>
              <details open={m.id === module}>
                <summary>
                  <span className="module-number">Module {m.id}</span> {m.title}
                  {read > 0 && (
                    <span className="curriculum-count">
                      {" "}
                      · {read} of {m.topics.length} read
                    </span>
                  )}
                </summary>
                <ol>
                  {m.topics.map((topic, i) => {
                    const current = m.id === module && i + 1 === lesson;
                    const done = loaded && isLessonRead(progress, m.id, i + 1);
                    return (
                      <li key={topic.id} className={done ? "read" : undefined}>
                        <Link
                          href={lessonHref(m.id, i + 1)}
                          aria-current={current ? "page" : undefined}
                          onClick={() => onFollow?.()}
                        >
                          <span className="tick" aria-hidden="true">
                            {done ? "✓" : ""}
                          </span>
                          {topic.title}
                          {done && <span className="visually-hidden"> (read)</span>}
                        </Link>
                      </li>
                    );
                  })}
                </ol>
              </details>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/**
 * On a phone: a button near the lesson opens the curriculum as a bottom sheet (a modal
 * dialog: Escape closes it and the focus returns to the button). Hidden without scripts,
 * where the curriculum is in the page after the lesson.
 */
export function CurriculumSheet(props: Omit<CurriculumProps, "onFollow">) {
  const [open, setOpen] = useState(false);
  const dialog = useModalDialog(open);
  const button = useRef<HTMLButtonElement>(null);

  function close() {
    setOpen(false);
    button.current?.focus();
  }

  return (
    <>
      <button
        ref={button}
        type="button"
        className="curriculum-open secondary outline"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <span className="visually-hidden">Course </span>Contents
      </button>
      <dialog
        ref={dialog}
        className="curriculum-sheet"
        aria-labelledby="curriculum-sheet-title"
        onCancel={(event) => {
          event.preventDefault();
          close();
        }}
      >
        {open && (
          <article>
            {/* Not a header: the sheet opens from inside the module's header, which holds no header. */}
            <div className="curriculum-sheet-head">
              <h2 id="curriculum-sheet-title">Course contents</h2>
              <button type="button" className="secondary outline" onClick={close}>
                Close
              </button>
            </div>
            <Curriculum {...props} onFollow={() => setOpen(false)} />
          </article>
        )}
      </dialog>
    </>
  );
}
