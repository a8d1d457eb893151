import { type MouseEvent, useEffect, useRef } from "react";
import { useLocation, useSearch } from "wouter";
import { DEFAULT_PRO_TIP } from "#shared/features/course/constants.ts";
import type { CourseModule } from "#shared/features/course/contract.ts";
import { lessonHref, topicProgress } from "#shared/features/course/course.ts";
import { isLessonRead } from "#web/features/progress/progress.ts";
import { useProgress } from "#web/features/progress/store.ts";
import { isPlainClick } from "#web/lib/clicks.ts";
import { revealHeading } from "#web/lib/scroll.ts";
import { StepProgress } from "#web/ui/step-progress.tsx";
import { useReadThrough } from "./read-through.ts";

/** The address of a module's lesson by its 0-based index. */
const topicHref = (moduleId: number, index: number) => lessonHref(moduleId, index + 1);

/** The lesson the address asks for (`?topic=N`, 1-based), or the first one. */
export function topicIndex(search: string, count: number): number {
  const asked = Number(new URLSearchParams(search).get("topic") ?? "1") - 1;
  return Number.isInteger(asked) && asked >= 0 && asked < count ? asked : 0;
}

/** The lesson's title, focused, shown from the progress above it (which topic of how many). */
function revealLesson(heading: HTMLElement | null) {
  const section = heading?.closest(".topic-viewer");
  revealHeading(heading, section?.querySelector<HTMLElement>(".wizard-progress") ?? null);
}

/**
 * The topic viewer (docs/product.md#module-page): one topic at a time, the one the address
 * names (`?topic=N`), so every lesson has its own link, also without JavaScript.
 */
export function TopicViewer({ module }: { module: CourseModule }) {
  const topics = module.topics;
  const index = topicIndex(useSearch(), topics.length);
  const [, navigate] = useLocation();
  const topic = topics[index]!;
  const last = index === topics.length - 1;
  const percent = topicProgress(index, topics.length);
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef(index);
  const end = useRef<HTMLDivElement>(null);
  useReadThrough(module.id, index + 1, end);

  useEffect(() => {
    // After Previous, Next, Back or Forward the new topic's title is in view and focused,
    // not the top of the page; the first render leaves both where the browser put them.
    if (shown.current === index) return;
    shown.current = index;
    revealLesson(heading.current);
  }, [index]);

  /** With scripts the lesson changes in place; the address follows, so reload and Back keep it. */
  function go(event: MouseEvent, to: number) {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    if (to !== index) navigate(topicHref(module.id, to));
    else revealLesson(heading.current);
  }

  return (
    <section className="topic-viewer" aria-labelledby="topic-title">
      <StepProgress
        count={
          <>
            Topic {index + 1} of {topics.length}
          </>
        }
        percent={percent}
        label="Module progress"
      />

      <h2 id="topic-title" ref={heading} tabIndex={-1}>
        {topic.title}
      </h2>
      {topic.content.trim() ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: trusted HTML from content/ (checked by tests/content.test.ts), never from visitors.
        <div className="lesson" dangerouslySetInnerHTML={{ __html: topic.content }} />
      ) : (
        <p className="lesson-empty">This topic content is coming soon!</p>
      )}

      <aside className="tip" aria-labelledby="pro-tip-heading">
        <h3 id="pro-tip-heading">
          <span aria-hidden="true">💡</span> Pro tip
        </h3>
        <p>{topic.proTip ?? DEFAULT_PRO_TIP}</p>
      </aside>
      {/* The lesson's end: once it has been on screen (and the lesson open long enough) it counts as read. */}
      <div ref={end} className="lesson-end" />

      {last && <TopicsDone module={module} shown={index} />}

      <nav className="wizard-nav" aria-label="Topics">
        {index === 0 ? (
          <button type="button" className="secondary outline" disabled>
            Previous
          </button>
        ) : (
          <a
            href={topicHref(module.id, index - 1)}
            role="button"
            className="secondary outline"
            onClick={(event) => go(event, index - 1)}
          >
            Previous
          </a>
        )}
        {!last && (
          <a href={topicHref(module.id, index + 1)} role="button" onClick={(event) => go(event, index + 1)}>
            Next
          </a>
        )}
      </nav>
    </section>
  );
}

/**
 * After the module's last lesson: on to the quiz. Once this browser's progress is read, lessons
 * of the module not read through yet (the one on screen aside) are named with their links
 * instead of claiming every topic is done; the quiz stays open either way.
 */
function TopicsDone({ module, shown }: { module: CourseModule; shown: number }) {
  const { progress, loaded } = useProgress();
  const unread = loaded
    ? module.topics
        .map((topic, i) => ({ topic, i }))
        .filter(({ i }) => i !== shown && !isLessonRead(progress, module.id, i + 1))
    : [];
  return (
    <section className="topics-done" aria-labelledby="topics-done-heading">
      {unread.length === 0 ? (
        <>
          <h3 id="topics-done-heading">All Topics Completed</h3>
          <p>You have finished every topic in this module. Continue to test what you learned.</p>
        </>
      ) : (
        <>
          <h3 id="topics-done-heading">The end of this module's lessons</h3>
          <p>
            {unread.length === 1 ? "One lesson is" : `${unread.length} lessons are`} not read through yet on this
            device:
          </p>
          <ul>
            {unread.map(({ topic, i }) => (
              <li key={topic.id}>
                <a href={topicHref(module.id, i)}>{topic.title}</a>
              </li>
            ))}
          </ul>
          <p>You can read {unread.length === 1 ? "it" : "them"} first, or go on to test what you learned.</p>
        </>
      )}
      {/* A full page load, not a client navigation. */}
      <a href={`/learn/module-complete?moduleId=${module.id}`} role="button">
        Continue
      </a>
    </section>
  );
}
