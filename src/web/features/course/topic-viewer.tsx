import { useEffect, useRef, useState } from "react";
import { DEFAULT_PRO_TIP } from "#shared/features/course/constants.ts";
import type { CourseModule } from "#shared/features/course/contract.ts";
import { topicProgress } from "#shared/features/course/course.ts";
import { revealHeading } from "#web/lib/scroll.ts";
import { StepProgress } from "#web/ui/step-progress.tsx";

/** The topic viewer (docs/product.md#module-page): one topic at a time, from the first. */
export function TopicViewer({ module }: { module: CourseModule }) {
  const [index, setIndex] = useState(0);
  const topics = module.topics;
  const topic = topics[index]!;
  const last = index === topics.length - 1;
  const percent = topicProgress(index, topics.length);
  const heading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);

  useEffect(() => {
    // After Previous or Next the new topic's title is in view and focused, not the top of the page.
    if (moved.current) revealHeading(heading.current);
  }, [index]);

  function go(to: number) {
    moved.current = true;
    setIndex(to);
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

      {last && (
        <section className="topics-done" aria-labelledby="topics-done-heading">
          <h3 id="topics-done-heading">All Topics Completed</h3>
          <p>You have finished every topic in this module. Continue to test what you learned.</p>
          {/* A full page load, not a client navigation. */}
          <a href={`/learn/module-complete?moduleId=${module.id}`} role="button">
            Continue
          </a>
        </section>
      )}

      <nav className="wizard-nav" aria-label="Topics">
        <button type="button" className="secondary outline" onClick={() => go(index - 1)} disabled={index === 0}>
          Previous
        </button>
        {!last && (
          <button type="button" onClick={() => go(index + 1)}>
            Next
          </button>
        )}
      </nav>
    </section>
  );
}
