/** A bounded map that forgets the least recently used entry first. */
export class Lru<K, V> {
  private entries = new Map<K, V>();
  /** The key used last: asked again (the common case), it is already the newest. */
  private newest: K | undefined;
  constructor(private readonly maxEntries: number) {}

  get(key: K): V | undefined {
    const hit = this.entries.get(key);
    if (hit !== undefined && key !== this.newest) {
      this.newest = key;
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
    this.newest = key;
  }

  clear(): void {
    this.entries.clear();
    this.newest = undefined;
  }

  get size(): number {
    return this.entries.size;
  }
}
