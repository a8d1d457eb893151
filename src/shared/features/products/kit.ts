// A starter kit is the archetype's own picks followed by the essentials every new model
// needs (docs/product.md#starter-kit). Some picks are a better version of an essential (a
// wide-angle camera for two people, a clip-on microphone for a workout): the kit then shows
// the pick and leaves out the essential of the same kind, so no kit lists two cameras or two
// microphones. The kind is read from the product's name, so a product an operator adds is
// grouped the same way.

/** A kind of product that one kit needs only once. */
export type ProductKind = "camera" | "microphone";

interface Named {
  name: string;
}

/** The kind of a product, or null for anything a kit may hold several of (lights, decor, privacy tools). */
export function productKind({ name }: Named): ProductKind | null {
  // A webcam cover, mount or tripod is an accessory, not a camera.
  if (/\b(cover|mount|tripod)\b/i.test(name)) return null;
  if (/\b(web ?cam|camera)\b/i.test(name)) return "camera";
  if (/\b(microphone|mic)\b/i.test(name)) return "microphone";
  return null;
}

/** The archetype's picks, then the essentials whose kind no pick already covers, each list in its own order. */
export function starterKit<P extends Named>(picked: P[], essentials: P[]): { picked: P[]; essentials: P[] } {
  const covered = new Set(picked.map(productKind).filter((kind) => kind !== null));
  const kept = essentials.filter((product) => {
    const kind = productKind(product);
    return kind === null || !covered.has(kind);
  });
  return { picked, essentials: kept };
}
