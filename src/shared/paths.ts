// API paths the pages use besides their declared reads (each in its feature's reads.ts).

export const API = {
  /** Where the quiz and the calculator save a result (POST). */
  quizResults: "/api/quiz/result",
  earningsResults: "/api/earnings/result",
};
