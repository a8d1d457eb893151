// The answers of a wizard (the archetype quiz, the earnings calculator) as its address
// and its forms spell them: one character per answer, by position (`ACDB`, `2311`).

/** The answers spelled in `value`, each one of `options`, between `min` and `max` of them; null when not. */
export function parseAnswers<V extends string | number>(
  value: string,
  options: readonly V[],
  { min, max }: { min: number; max: number },
): V[] | null {
  if (value.length < min || value.length > max) return null;
  const answers: V[] = [];
  for (const char of value) {
    const option = options.find((o) => String(o) === char);
    if (option === undefined) return null;
    answers.push(option);
  }
  return answers;
}

export function spellAnswers(answers: readonly (string | number)[]): string {
  return answers.join("");
}
