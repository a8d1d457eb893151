import { expect } from "bun:test";
import { screen, waitFor } from "@testing-library/react";

/** The message announced for a labelled control (its aria-describedby text). */
export function fieldMessage(label: string): string | null {
  const input = screen.getByLabelText(label);
  // The message is the first description; a hint may follow it.
  const id = input.getAttribute("aria-describedby")?.split(" ")[0];
  return input.getAttribute("aria-invalid") === "true" && id
    ? (document.getElementById(id)?.textContent ?? null)
    : null;
}

/** Waits (longer than the default second: the real app answers, and a failed mutation is retried once after a second) for the message at a field. */
export function messageAt(label: string, message: string) {
  return waitFor(() => expect(fieldMessage(label)).toBe(message), { timeout: 5000 });
}
