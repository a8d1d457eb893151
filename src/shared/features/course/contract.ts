import { type Static, Type } from "@sinclair/typebox";
import { literalUnion } from "#shared/schema/common.ts";
import { MODULE_COUNT, QUIZ_QUESTIONS_PER_MODULE, TOPICS_PER_MODULE } from "./constants.ts";

export { MODULE_COUNT } from "./constants.ts";

const OPTION_IDS = ["A", "B", "C", "D"] as const;
const OptionId = literalUnion(OPTION_IDS, { error: "Option id must be A, B, C or D" });

export const Topic = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: TOPICS_PER_MODULE }),
  title: Type.String({ minLength: 5, maxLength: 100 }),
  /** Trusted HTML from content/: h3, h4, p, ul, ol, li, strong, em, blockquote. */
  content: Type.String(),
  proTip: Type.Optional(Type.String({ minLength: 20, maxLength: 300 })),
});
export type Topic = Static<typeof Topic>;

/** A module quiz option with its own explanation of why it is right or wrong. */
const ModuleQuizOption = Type.Object({
  id: OptionId,
  text: Type.String({ minLength: 1, maxLength: 200 }),
  explanation: Type.String({ minLength: 30, maxLength: 500 }),
});

export const ModuleQuizQuestion = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: QUIZ_QUESTIONS_PER_MODULE }),
  question: Type.String({ minLength: 10, maxLength: 240 }),
  options: Type.Array(ModuleQuizOption, { minItems: 4, maxItems: 4 }),
  correctAnswer: OptionId,
});
export type ModuleQuizQuestion = Static<typeof ModuleQuizQuestion>;

export const CourseModule = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MODULE_COUNT }),
  title: Type.String({ minLength: 5, maxLength: 100 }),
  description: Type.String({ minLength: 60, maxLength: 400 }),
  isActive: Type.Boolean(),
  topics: Type.Array(Topic, { minItems: 1, maxItems: TOPICS_PER_MODULE }),
  /** Action items for the resource library (docs/product.md#resource-library). */
  checklist: Type.Optional(Type.Array(Type.String({ minLength: 10, maxLength: 160 }), { minItems: 4, maxItems: 6 })),
  /** Absent while a module's quiz is being written: the page shows 'Quiz Not Available'. */
  quiz: Type.Optional(
    Type.Object({
      questions: Type.Array(ModuleQuizQuestion, {
        minItems: QUIZ_QUESTIONS_PER_MODULE,
        maxItems: QUIZ_QUESTIONS_PER_MODULE,
      }),
    }),
  ),
});
export type CourseModule = Static<typeof CourseModule>;

/** A module as the overview lists it: no lessons, no quiz. */
export interface ModuleSummary {
  id: number;
  title: string;
  description: string;
  isActive: boolean;
  topics: { id: number; title: string }[];
  checklist: string[];
}

/** The outcome of a module quiz (docs/product.md#module-quiz). */
export interface QuizOutcome {
  moduleId: number;
  score: number;
  totalQuestions: number;
  correctAnswers: number;
  completed: boolean;
}
