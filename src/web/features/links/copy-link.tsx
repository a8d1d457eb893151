import { useState } from "react";

/**
 * "Copy link": copies `address` (a link's absolute /go/ address) and says "Copied" in a live
 * region. When the clipboard is refused (or missing), the address shows as selected text to copy
 * by hand. `unconfirmed`: the site's public address is not set, so `address` starts with the
 * address the admin is using now, and the confirmation says so.
 */
export function CopyLink({
  address,
  name,
  unconfirmed = false,
}: {
  address: string;
  name: string;
  unconfirmed?: boolean;
}) {
  const [state, setState] = useState<"idle" | "copied" | "refused">("idle");
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error("No clipboard");
      await navigator.clipboard.writeText(address);
      setState("copied");
    } catch {
      setState("refused");
    }
  };
  return (
    <span className="copy-link">
      <button type="button" className="secondary outline small-button" onClick={() => void copy()}>
        Copy link<span className="visually-hidden"> {name}</span>
      </button>
      <span aria-live="polite" className="copy-link-status">
        {state === "copied"
          ? unconfirmed
            ? "Copied. The site's public address is not set yet (Settings), so this is the address you are using now."
            : "Copied"
          : state === "refused"
            ? "Copy it from here:"
            : ""}
      </span>
      {state === "refused" && (
        <input
          className="copy-link-text"
          readOnly
          value={address}
          aria-label={`Address of ${name}`}
          ref={(input) => input?.select()}
          onFocus={(e) => e.target.select()}
        />
      )}
    </span>
  );
}
