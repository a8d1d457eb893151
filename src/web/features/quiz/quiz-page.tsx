import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { spellAnswers } from "#shared/answers.ts";
import { METRICS } from "#shared/features/analytics/constants.ts";
import { quizAnswersSoFar } from "#shared/features/quiz/constants.ts";
import { archetypeQuestions, scoringTable } from "#shared/features/quiz/content.ts";
import type { Letter } from "#shared/features/quiz/contract.ts";
import { archetypeProfileRead } from "#shared/features/quiz/reads.ts";
import { scoreArchetype } from "#shared/features/quiz/scoring.ts";
import { API } from "#shared/paths.ts";
import { report } from "#web/features/analytics/beacon.ts";
import { updateProgress } from "#web/features/progress/store.ts";
import { readQuery } from "#web/lib/reads.ts";
import { saveResult } from "#web/lib/save-result.ts";
import type { PageRoute } from "#web/page-route.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { Wizard } from "#web/ui/wizard.tsx";
import { UNFINISHED_KEYS } from "#web/ui/wizard-resume.tsx";

export const route: PageRoute = { cache: true };

/** The address of the quiz after these answers (the first question without any). */
function quizStep(answers: readonly Letter[]): string {
  return answers.length > 0 ? `/quiz?answers=${spellAnswers(answers)}` : "/quiz";
}

/** /quiz, ?answers= the answers so far (docs/product.md#the-archetype-quiz). */
export default function QuizPage() {
  const answered = quizAnswersSoFar(new URLSearchParams(useSearch()).get("answers") ?? "") ?? [];
  const [, navigate] = useLocation();
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  // The quiz counts as begun at its first answer given here (not on a reload of a later step).
  const before = useRef(answered.length);
  useEffect(() => {
    if (before.current === 0 && answered.length === 1) report(METRICS.quizStart);
    before.current = answered.length;
  }, [answered.length]);

  async function finish(answers: Letter[]) {
    const { archetype } = scoreArchetype(answers, scoringTable);
    setSaving(true);
    // The result page shows this profile: fetched while the answers are saved, it is there on arrival.
    void queryClient.prefetchQuery(readQuery(archetypeProfileRead, { name: archetype }));
    const saved = await saveResult(
      API.quizResults,
      { archetype, answers },
      "Failed to save quiz result. Please try again.",
    );
    if (!saved) return setSaving(false);
    updateProgress((progress) => ({ ...progress, quiz: { id: saved.id, archetype } }));
    navigate(`/quiz/result?archetype=${encodeURIComponent(archetype)}&id=${encodeURIComponent(saved.id)}`);
  }

  return (
    <>
      <PageMeta
        page="Discover Your Cam Girl Archetype"
        description="A 5-minute, 15-question quiz that matches you with one of 10 cam model archetypes, with the strengths, safety tips and pitfalls of each."
      />
      <header className="page-intro">
        <h1>Discover Your Cam Girl Archetype</h1>
        <p>
          Take this 5-minute quiz: 15 questions about your style, comfort zone and goals. There are no wrong answers;
          pick what feels most like you.
        </p>
      </header>
      <Wizard
        questions={archetypeQuestions}
        answered={answered}
        href={quizStep}
        action="/quiz"
        onFinish={finish}
        busy={saving}
        resume={{ storageKey: UNFINISHED_KEYS.quiz, parse: quizAnswersSoFar }}
      />
    </>
  );
}
