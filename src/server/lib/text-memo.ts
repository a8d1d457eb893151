/**
 * `derive` remembered for the last `kept` texts it was given, by a hash of the text and its
 * length (a changed text is another key): what a page derives from a stored post (its clean
 * HTML, its images, its reading time) is worked out once, not on every render. `derive` must
 * depend on the text alone. The most recently used are kept.
 */
export function byText<T>(derive: (text: string) => T, kept = 256): (text: string) => T {
  const known = new Map<string, T>();
  return (text) => {
    const key = `${text.length}:${Bun.hash(text).toString(36)}`;
    if (known.has(key)) {
      const value = known.get(key) as T;
      // The most recently used last: the first one is the next to go.
      known.delete(key);
      known.set(key, value);
      return value;
    }
    const value = derive(text);
    known.set(key, value);
    if (known.size > kept) known.delete(known.keys().next().value!);
    return value;
  };
}
