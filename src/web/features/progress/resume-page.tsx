import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from "react";
import { Link } from "wouter";
import { MODULE_COUNT, TOPICS_PER_MODULE } from "#shared/features/course/constants.ts";
import type { PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { isEmpty, lessonsReadCount, nextStep, type Progress } from "./progress.ts";
import { decodeResumeCode, encodeResumeCode, RESUME_CODE_PROBLEMS, resumeLink } from "./resume-code.ts";
import { replaceProgress, useProgress } from "./store.ts";

// Nothing here depends on the visitor on the server: the code is made and read in the browser.
export const route: PageRoute = { cache: true };

/**
 * /resume: a resume code and link that carry this browser's progress to another device, and a
 * box that reads one, shows what it holds and replaces this device's progress only once asked
 * (docs/product.md#resume-code). Nothing is sent to the server.
 */
export default function ResumePage() {
  const { progress, loaded } = useProgress();

  return (
    <article className="resume-page">
      <PageMeta
        page="Continue on Another Device"
        description="Carry your quiz result, estimate and course progress to another device with a resume code. The code is never sent to our server."
        noindex
      />
      <header className="resume-intro">
        <h1>Continue on another device</h1>
        <p className="lead">
          Your course progress, and which quiz result and estimate are yours, are kept in this browser. A resume code
          carries them to another phone or computer.
        </p>
        <p>
          The code is made on your device and read on the other one: it is never sent to or stored on our server. The
          answers behind a quiz result or an estimate are saved on the server under a random id, as the{" "}
          <Link href="/privacy">privacy policy</Link> explains; the code carries that id.
        </p>
      </header>
      <div className="when-no-script">
        <p>
          This needs JavaScript, because your progress lives in your browser and the code is made there. Turn JavaScript
          on for this site to see your code or to use one. Without it, <Link href="/learn">the course</Link> still
          works, but your browser does not remember where you are.
        </p>
      </div>
      {loaded ? (
        <>
          <YourCode progress={progress} />
          <ImportCode current={progress} />
        </>
      ) : (
        <p className="when-script" aria-busy="true">
          Reading your progress on this device…
        </p>
      )}
    </article>
  );
}

/** A text field whose whole text is selected when it gets focus, with a button that copies it. */
function CopyField({ label, value, rows }: { label: string; value: string; rows: number }) {
  const id = useId();
  const [status, setStatus] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setStatus(`${label} copied.`);
    } catch {
      document.getElementById(id)?.focus();
      setStatus("Copying was not allowed here: the text is selected, copy it yourself.");
    }
  }
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        readOnly
        rows={rows}
        value={value}
        spellCheck={false}
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="copy-row">
        <button type="button" className="secondary" onClick={() => void copy()}>
          Copy {label.toLowerCase()}
        </button>
        <span role="status">{status}</span>
      </div>
    </div>
  );
}

function YourCode({ progress }: { progress: Progress }) {
  const code = useMemo(() => encodeResumeCode(progress), [progress]);
  return (
    <section aria-labelledby="your-code-heading" className="resume-section">
      <h2 id="your-code-heading">Your code</h2>
      {isEmpty(progress) ? (
        <p>
          This device has nothing to carry yet. Take <Link href="/quiz">the quiz</Link> or start{" "}
          <Link href="/learn">the course</Link>, then come back here.
        </p>
      ) : (
        <>
          <p className="resume-warning">
            <strong>Keep it to yourself.</strong> Anyone with this code or link can see your results and progress, and
            put them on their own device.
          </p>
          <CopyField label="Code" value={code} rows={3} />
          <CopyField label="Link" value={resumeLink(window.location.origin, code)} rows={3} />
          <p className="muted">
            The link keeps the code after the # sign, which browsers never send to a website, so it does not reach our
            server or its logs when you open it.
          </p>
        </>
      )}
    </section>
  );
}

/** What a Progress holds, in the words the preview shows. */
function summary(progress: Progress) {
  const scores = Object.entries(progress.quizzes).map(([m, q]) => `Module ${m}: ${q.correct}/${q.total}`);
  return [
    {
      label: "Persona quiz result",
      value: progress.quiz ? (progress.quiz.archetype ?? "A saved result") : "None",
    },
    { label: "Earnings estimate", value: progress.earnings?.tier ?? "None" },
    { label: "Lessons read", value: `${lessonsReadCount(progress)} of ${MODULE_COUNT * TOPICS_PER_MODULE}` },
    {
      label: "Modules completed",
      value: progress.completed.length
        ? `${progress.completed.length} of ${MODULE_COUNT} (${progress.completed.join(", ")})`
        : "None",
    },
    { label: "Quiz scores", value: scores.length ? scores.join(", ") : "None" },
    {
      label: "Last lesson",
      value: progress.last ? `Module ${progress.last.module}, lesson ${progress.last.lesson}` : "None",
    },
  ];
}

type Step = { at: "edit"; problem: string | null } | { at: "preview"; incoming: Progress } | { at: "done" };

/** The preview of a pasted code, or the edit box with what is wrong with it. */
function stepFor(text: string): Step {
  const result = decodeResumeCode(text);
  return result.ok
    ? { at: "preview", incoming: result.progress }
    : { at: "edit", problem: RESUME_CODE_PROBLEMS[result.problem] };
}

function ImportCode({ current }: { current: Progress }) {
  const [text, setText] = useState("");
  const [step, setStep] = useState<Step>({ at: "edit", problem: null });
  const focusRef = useRef<HTMLHeadingElement & HTMLParagraphElement>(null);
  const fieldId = useId();
  const problemId = useId();

  useEffect(() => {
    // Arrived by a resume link: read the code from the fragment, then take it out of the
    // address bar so it does not stay in this tab's history.
    const fromLink = decodedFragment(window.location.hash.slice(1));
    if (!fromLink) return;
    window.history.replaceState(window.history.state, "", window.location.pathname);
    setText(fromLink);
    setStep(stepFor(fromLink));
  }, []);

  useEffect(() => {
    if (step.at !== "edit") focusRef.current?.focus();
  }, [step.at]);

  function submit(event: FormEvent) {
    event.preventDefault();
    setStep(stepFor(text));
  }

  if (step.at === "done") {
    const next = nextStep(current);
    return (
      <section aria-labelledby="import-heading" className="resume-section">
        <h2 id="import-heading">Use a code from another device</h2>
        <p role="status" tabIndex={-1} ref={focusRef} className="resume-done">
          Done: this device now has the progress from your code.
        </p>
        <div className="button-row">
          <Link href={next.href} role="button">
            {next.kind === "done" ? "See your graduation" : "Continue the course"}
          </Link>
          <Link href="/learn" role="button" className="secondary outline">
            Go to the course
          </Link>
        </div>
      </section>
    );
  }

  if (step.at === "preview") {
    const now = summary(current);
    const incoming = summary(step.incoming);
    return (
      <section aria-labelledby="preview-heading" className="resume-section">
        <h2 id="preview-heading" tabIndex={-1} ref={focusRef}>
          What this code will restore
        </h2>
        <p>Nothing has changed yet. Compare, then choose.</p>
        <table className="resume-preview">
          <thead>
            <tr>
              <th scope="col">What</th>
              <th scope="col">From the code</th>
              <th scope="col">On this device now</th>
            </tr>
          </thead>
          <tbody>
            {incoming.map((row, i) => (
              <tr key={row.label}>
                <th scope="row">{row.label}</th>
                <td>{row.value}</td>
                <td>{now[i]?.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="resume-warning">
          Replacing removes what this device has now and puts the code's progress in its place.
        </p>
        <div className="button-row">
          <button
            type="button"
            onClick={() => {
              replaceProgress(step.incoming);
              setStep({ at: "done" });
            }}
          >
            Replace my progress on this device
          </button>
          <button type="button" className="secondary outline" onClick={() => setStep({ at: "edit", problem: null })}>
            Cancel
          </button>
        </div>
      </section>
    );
  }

  return (
    <section aria-labelledby="import-heading" className="resume-section">
      <h2 id="import-heading">Use a code from another device</h2>
      <form onSubmit={submit} noValidate>
        <label htmlFor={fieldId}>Paste a resume code or link</label>
        <textarea
          id={fieldId}
          rows={3}
          value={text}
          spellCheck={false}
          autoComplete="off"
          autoCapitalize="off"
          aria-invalid={step.problem ? true : undefined}
          aria-describedby={step.problem ? problemId : undefined}
          onChange={(event) => setText(event.target.value)}
        />
        {step.problem && (
          <p id={problemId} role="alert" className="field-error">
            {step.problem}
          </p>
        )}
        <button type="submit">Check this code</button>
      </form>
      <p className="muted">You will see what the code holds before anything on this device changes.</p>
    </section>
  );
}

/** The fragment as typed: a link copied through some apps arrives with its spaces and line breaks escaped. */
function decodedFragment(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}
