import { describe, expect, test } from "bun:test";
import products from "#content/products.json" with { type: "json" };
import { ARCHETYPES } from "#shared/features/quiz/constants.ts";
import { ALL_ARCHETYPES } from "./constants.ts";
import { productKind, starterKit } from "./kit.ts";

const named = (name: string) => ({ name });

describe("productKind", () => {
  test("cameras and microphones by name; their accessories are not", () => {
    expect(productKind(named("1080p webcam with manual focus"))).toBe("camera");
    expect(productKind(named("Wide-angle 4K webcam for two people in frame"))).toBe("camera");
    expect(productKind(named("USB microphone with desk arm and pop filter"))).toBe("microphone");
    expect(productKind(named("Clip-on wireless lavalier microphone"))).toBe("microphone");
    expect(productKind(named("Sliding webcam privacy cover (multi-pack)"))).toBeNull();
    expect(productKind(named("Adjustable floor tripod with webcam/phone mount"))).toBeNull();
    expect(productKind(named("Dimmable bi-colour LED key light"))).toBeNull();
  });
});

describe("starterKit", () => {
  test("an essential of a kind a pick covers is left out; the others stay in order", () => {
    const picked = [named("Wide-angle webcam"), named("Pastel cushions")];
    const essentials = [named("Key light"), named("1080p webcam"), named("USB microphone")];
    expect(starterKit(picked, essentials)).toEqual({
      picked,
      essentials: [named("Key light"), named("USB microphone")],
    });
  });

  test("no seeded kit holds two products of one kind", () => {
    const essentials = products.filter((p) => p.archetype === ALL_ARCHETYPES);
    for (const archetype of ARCHETYPES) {
      const kit = starterKit(
        products.filter((p) => p.archetype === archetype),
        essentials,
      );
      const kinds = [...kit.picked, ...kit.essentials].map(productKind).filter((kind) => kind !== null);
      expect([archetype, kinds.length]).toEqual([archetype, new Set(kinds).size]);
    }
  });

  test("the Couple kit keeps its own camera and microphone, not the essentials' ones", () => {
    const kit = starterKit(
      products.filter((p) => p.archetype === "Couple"),
      products.filter((p) => p.archetype === ALL_ARCHETYPES),
    );
    const ids = [...kit.picked, ...kit.essentials].map((p) => p.id);
    expect(ids).toContain("couple-wide-angle-camera");
    expect(ids).toContain("couple-boundary-microphone");
    expect(ids).not.toContain("essential-1080p-webcam");
    expect(ids).not.toContain("essential-usb-microphone");
  });
});
