import { afterEach, expect, test } from "bun:test";
import { act, cleanup, fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { adminApp } from "#tests/support/admin.ts";
import { createLink } from "#tests/support/factories.ts";
import { routeFetchTo } from "#tests/support/fetch.ts";
import { renderAt } from "#tests/support/render.tsx";
import { useToastStore } from "#web/stores/toast.ts";
import { CopyLink } from "./copy-link.tsx";
import { type LinkPick, LinkPicker, linkPickOf } from "./link-picker.tsx";

afterEach(() => {
  act(() => useToastStore.getState().remove());
  cleanup();
});

/** The picker in a form of its own, showing the URL the source would keep. */
function Harness({ slug }: { slug: string | null }) {
  const [pick, setPick] = useState<LinkPick>(linkPickOf(slug));
  const [url, setUrl] = useState("");
  return (
    <>
      <LinkPicker
        value={pick}
        onChange={(next, destination) => {
          setPick(next);
          setUrl(destination);
        }}
        errors={{ newLinkSlug: pick.newLinkSlug === "taken" ? "A link with the slug exists" : undefined }}
      />
      <output data-testid="url">{url}</output>
    </>
  );
}

test("the link picker lists the links by slug and host, and asks for a slug and destination for a new one", async () => {
  const t = await adminApp({ seed: false });
  await createLink(t.db, { slug: "alpha", destination: "https://alpha.example/join?ref=1" });
  await createLink(t.db, { slug: "beta", destination: "https://beta.example/", active: false });
  await createLink(t.db, { slug: "gamma", destination: "https://gamma.example/", healthClass: "broken" });
  routeFetchTo(t.asAdmin);
  renderAt("/admin", <Harness slug={null} />);
  const select = screen.getByLabelText("Link", { selector: "select" }) as HTMLSelectElement;
  // A new source starts with a new link.
  expect(select.value).toBe("+new");
  await waitFor(() => expect(select.options.length).toBe(4));
  // "New link…" first; an inactive link says "(off)", a broken one "(broken)".
  expect([...select.options].map((o) => o.textContent)).toEqual([
    "New link…",
    "alpha — alpha.example",
    "beta — beta.example (off)",
    "gamma — gamma.example (broken)",
  ]);
  fireEvent.change(screen.getByLabelText("New link's destination"), { target: { value: "https://n.example/" } });
  expect(screen.getByTestId("url").textContent).toBe("https://n.example/");
  fireEvent.change(screen.getByLabelText("New link's slug"), { target: { value: "taken" } });
  expect(screen.getByLabelText("New link's slug").getAttribute("aria-invalid")).toBe("true");

  // Picking a link hides the new link's inputs and gives the source that link's destination.
  fireEvent.change(select, { target: { value: "alpha" } });
  expect(screen.queryByLabelText("New link's slug")).toBeNull();
  expect(screen.getByTestId("url").textContent).toBe("https://alpha.example/join?ref=1");
  expect(document.body.textContent).toContain("/go/alpha");
});

test("the link picker keeps a source's link selected", async () => {
  const t = await adminApp({ seed: false });
  await createLink(t.db, { slug: "alpha", destination: "https://alpha.example/" });
  routeFetchTo(t.asAdmin);
  renderAt("/admin", <Harness slug="alpha" />);
  const select = screen.getByLabelText("Link", { selector: "select" }) as HTMLSelectElement;
  await waitFor(() => expect(select.options.length).toBe(2));
  expect(select.value).toBe("alpha");
  expect(screen.queryByLabelText("New link's slug")).toBeNull();
});

test("Copy link copies the absolute address and says Copied; refused, it shows the address to copy", async () => {
  const written: string[] = [];
  const clipboard = { writeText: async (text: string) => void written.push(text) };
  Object.defineProperty(navigator, "clipboard", { value: clipboard, configurable: true });
  try {
    renderAt("/admin", <CopyLink address="https://site.example/go/alpha" name="alpha" />);
    const status = document.querySelector("[aria-live]")!;
    expect(status.textContent).toBe("");
    fireEvent.click(screen.getByRole("button", { name: "Copy link alpha" }));
    await waitFor(() => expect(status.textContent).toBe("Copied"));
    expect(written).toEqual(["https://site.example/go/alpha"]);

    clipboard.writeText = async () => {
      throw new Error("denied");
    };
    fireEvent.click(screen.getByRole("button", { name: "Copy link alpha" }));
    const text = (await screen.findByLabelText("Address of alpha")) as HTMLInputElement;
    expect(text.value).toBe("https://site.example/go/alpha");
    expect(text.readOnly).toBe(true);
    expect(status.textContent).toBe("Copy it from here:");
    cleanup();

    // Without a public address set, the confirmation says the address is the one in use now.
    clipboard.writeText = async (text: string) => void written.push(text);
    renderAt("/admin", <CopyLink address="http://127.0.0.1:5400/go/alpha" name="alpha" unconfirmed />);
    fireEvent.click(screen.getByRole("button", { name: "Copy link alpha" }));
    await waitFor(() =>
      expect(document.querySelector("[aria-live]")!.textContent).toBe(
        "Copied. The site's public address is not set yet (Settings), so this is the address you are using now.",
      ),
    );
  } finally {
    Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
  }
});
