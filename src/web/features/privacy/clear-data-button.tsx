import { useId, useState } from "react";
import { useModalDialog } from "#web/ui/modal-dialog.ts";
import { clearSiteData, listSiteData, type StoredItem } from "./site-data.ts";

type Step = { at: "closed" } | { at: "confirm"; items: StoredItem[] } | { at: "done"; removed: StoredItem[] };

function ItemList({ items }: { items: StoredItem[] }) {
  return (
    <ul>
      {items.map((item) => (
        <li key={`${item.kind}:${item.name}`}>
          {item.label} <span className="muted">({item.kind})</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * "Clear my data on this device": a confirmation that lists what the site keeps in this browser,
 * then what was removed. Closing the last step reloads the page, which then starts as for a new
 * visitor. Needs scripts (without them the site keeps nothing in the browser), so it is hidden
 * when they are off.
 */
/** What no site can erase, said wherever the site offers to erase what it can. */
export const BROWSER_KEEPS =
  "Your browser's own history (the pages you opened here, which Back and the address bar can show) and its cached copies of pages stay: clear them in the browser's settings, or use a private window.";

export function ClearDataButton() {
  const [step, setStep] = useState<Step>({ at: "closed" });
  const [busy, setBusy] = useState(false);
  const ref = useModalDialog(step.at !== "closed");
  const titleId = useId();

  async function open() {
    setStep({ at: "confirm", items: await listSiteData() });
  }

  async function clear() {
    setBusy(true);
    try {
      setStep({ at: "done", removed: await clearSiteData() });
    } finally {
      setBusy(false);
    }
  }

  function close() {
    const wasDone = step.at === "done";
    setStep({ at: "closed" });
    // Everything on screen that came from the removed data (progress, results) starts afresh.
    if (wasDone) window.location.reload();
  }

  return (
    <>
      <button type="button" className="clear-data secondary outline" onClick={() => void open()}>
        Clear my data on this device
      </button>
      <dialog
        ref={ref}
        className="clear-data-dialog"
        aria-labelledby={titleId}
        onCancel={(event) => {
          event.preventDefault();
          close();
        }}
      >
        <article>
          {step.at === "done" ? (
            <>
              <h2 id={titleId}>Your data is cleared</h2>
              {step.removed.length ? (
                <>
                  <p>Removed from this browser's storage:</p>
                  <ItemList items={step.removed} />
                </>
              ) : (
                <p>There was nothing to remove: this site had saved nothing in this browser's storage.</p>
              )}
              <p>The site now treats this device as a new visitor's. {BROWSER_KEEPS}</p>
              <div className="dialog-actions">
                <button type="button" onClick={close}>
                  Done
                </button>
              </div>
            </>
          ) : (
            <>
              <h2 id={titleId}>Clear my data on this device?</h2>
              {step.at === "confirm" && step.items.length ? (
                <>
                  <p>This removes what this site saved in this browser's storage:</p>
                  <ItemList items={step.items} />
                  <p>
                    Saved results stay on the server under their random address; anyone without the address cannot find
                    them.
                  </p>
                </>
              ) : (
                <p>This site has saved nothing in this browser's storage right now.</p>
              )}
              <p>{BROWSER_KEEPS}</p>
              <div className="dialog-actions">
                <button type="button" className="secondary outline" onClick={close}>
                  Cancel
                </button>
                <button type="button" onClick={() => void clear()} disabled={busy} aria-busy={busy}>
                  Clear my data
                </button>
              </div>
            </>
          )}
        </article>
      </dialog>
    </>
  );
}
