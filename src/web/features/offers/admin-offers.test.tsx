import { afterEach, expect, spyOn, test } from "bun:test";
import { act, cleanup, fireEvent, screen } from "@testing-library/react";
import { adminApp } from "#tests/support/admin.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { fieldMessage, messageAt } from "#tests/support/field-message.ts";
import { renderAt } from "#tests/support/render.tsx";
import { useToastStore } from "#web/stores/toast.ts";
import { OfferEditor } from "./admin-offers.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

test("the offer editor shows a video URL the server cannot play at Video URL", async () => {
  const { asAdmin, database } = await adminApp();
  routeFetchTo(asAdmin);
  const before = database.sqlite.query("SELECT count(*) AS n FROM affiliate_offers").get();
  renderAt("/admin", <OfferEditor offer={null} onDone={() => {}} />);
  fireEvent.change(screen.getByLabelText("Title"), { target: { value: "An offer with a page for a video" } });
  fireEvent.change(screen.getByLabelText("Description"), {
    target: { value: "The video URL is a web page, not a video." },
  });
  fireEvent.click(screen.getByRole("radio", { name: "Video" }));
  fireEvent.change(screen.getByLabelText("Video URL"), { target: { value: "https://example.com/page" } });
  fireEvent.change(screen.getByLabelText("New link's slug"), { target: { value: "video-offer" } });
  fireEvent.change(screen.getByLabelText("New link's destination"), { target: { value: "https://example.com/offer" } });
  fireEvent.click(screen.getByRole("button", { name: "Create Offer" }));
  await messageAt("Video URL", "Use a YouTube or Vimeo link, or a direct MP4, WebM or Ogg file");
  expect(document.activeElement).toBe(screen.getByLabelText("Video URL"));
  expect(fieldMessage("New link's destination")).toBeNull();
  // Nothing was made: the new link is saved with the offer or not at all.
  expect(database.sqlite.query("SELECT count(*) AS n FROM links WHERE slug = 'video-offer'").get()).toEqual({ n: 0 });
  expect(useToastStore.getState().toasts[0]?.description).toBe("Failed to save affiliate offer. Please try again.");
  expect(database.sqlite.query("SELECT count(*) AS n FROM affiliate_offers").get()).toEqual(before);
});

test("the offer editor says a module's active offers take turns, counting only the active ones", async () => {
  const { asAdmin, database } = await adminApp();
  routeFetchTo(asAdmin);
  database.sqlite.run("UPDATE affiliate_offers SET is_active = 1 WHERE module_id = 3");
  const { n } = database.sqlite.query("SELECT count(*) AS n FROM affiliate_offers WHERE module_id = 3").get() as {
    n: number;
  };
  expect(n).toBeGreaterThan(0);
  database.sqlite.run("UPDATE affiliate_offers SET is_active = 0 WHERE module_id = 4");
  renderAt("/admin", <OfferEditor offer={null} onDone={() => {}} />);
  fireEvent.change(screen.getByLabelText("Module ID"), { target: { value: "3" } });
  const note = await screen.findByRole("status");
  expect(note.textContent).toContain(`Module 3 already has ${n} other active ${n === 1 ? "offer" : "offers"}.`);
  expect(note.textContent).toContain("each time a visitor opens a page with the module's offer card, it shows one");
  expect(note.textContent).not.toContain("Only one active offer");

  fireEvent.click(screen.getByLabelText("Active (visible to users)"));
  expect(screen.getByRole("status").textContent).toContain("This offer is inactive");

  fireEvent.change(screen.getByLabelText("Module ID"), { target: { value: "4" } });
  expect(screen.queryByRole("status")).toBeNull();
});

test("an empty Create: the messages at their fields, focus on Title; fixing the title removes only its message", () => {
  routeFetchTo(async () => Response.json([]));
  renderAt("/admin", <OfferEditor offer={null} onDone={() => {}} />);
  fireEvent.click(screen.getByRole("button", { name: "Create Offer" }));
  expect(fieldMessage("Title")).toBe("Title is required, at most 200 characters");
  expect(fieldMessage("Description")).toBe("Description is required, at most 2000 characters");
  expect(fieldMessage("New link's destination")).toBe("Link URL is required and must be a valid URL");
  expect(document.activeElement).toBe(screen.getByLabelText("Title"));

  fireEvent.change(screen.getByLabelText("Title"), { target: { value: "A webcam" } });
  expect(fieldMessage("Title")).toBeNull();
  expect(fieldMessage("Description")).toBe("Description is required, at most 2000 characters");
  expect(fieldMessage("New link's destination")).toBe("Link URL is required and must be a valid URL");
});

test("Cancel asks before dropping changes to an offer, and not when nothing changed", () => {
  routeFetchTo(async () => Response.json([]));
  const confirm = spyOn(window, "confirm").mockImplementation(() => false);
  try {
    let done = 0;
    renderAt("/admin", <OfferEditor offer={null} onDone={() => done++} />);
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(confirm).not.toHaveBeenCalled();
    expect(done).toBe(1);
    fireEvent.click(screen.getByRole("checkbox", { name: "Active (visible to users)" }));
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(confirm).toHaveBeenCalledWith("You have unsaved changes. Leave without saving?");
    expect(done).toBe(1);
  } finally {
    confirm.mockRestore();
  }
});
