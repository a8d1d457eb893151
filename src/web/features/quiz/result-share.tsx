import { useEffect, useState } from "react";
import type { Archetype, Letter } from "#shared/features/quiz/constants.ts";
import { scoringTable } from "#shared/features/quiz/content.ts";
import { runnerUpLines } from "#shared/features/quiz/runner-up.ts";
import { archetypeShares, shareAddress } from "#shared/features/quiz/share.ts";
import { useOrigin } from "#web/lib/origin.ts";

/**
 * The three archetypes with the most points and each one's share of all points, as text
 * with a bar beside it (the bar only repeats the number), then what the runner-up adds.
 * Archetypes with no points are left out.
 */
export function ArchetypeMix({ answers }: { answers: readonly Letter[] }) {
  const shares = archetypeShares(answers, scoringTable);
  const top = shares.slice(0, 3).filter((s) => s.points > 0);
  if (top.length === 0) return null;
  const total = shares.reduce((sum, s) => sum + s.points, 0);
  const runnerUp = top[1];
  // Archetypes with as many points as the winner: the result is a tie-break, said as one.
  const tied = shares.filter((s) => s.points === top[0]!.points).length;
  return (
    <section className="archetype-mix" aria-labelledby="mix-heading">
      <h2 id="mix-heading">
        {top.length === 3 ? "Your top three" : top.length === 2 ? "Your top two" : "Your top archetype"}
      </h2>
      <ol className="mix-list">
        {top.map((row) => (
          <li key={row.archetype}>
            <span className="mix-label">
              <span>{row.archetype}</span> <strong>{row.percent}%</strong>
            </span>
            <span className="progress-track mix-bar" aria-hidden="true">
              <span className="progress-fill" style={{ width: `${row.percent}%` }} />
            </span>
          </li>
        ))}
      </ol>
      <p className="small mix-note">
        Each number is that archetype's share of all {total} points your answers gave, rounded to a whole percent.
        {tied > 1 &&
          ` Your top ${tied === 2 ? "two are" : `${tied} are`} tied on points: the quiz names the one it lists first, so read ${tied === 2 ? "both" : "each"} of them as yours.`}
      </p>
      {runnerUp && (
        <p className="runner-up">
          <strong>
            {runnerUp.points === top[0]!.points
              ? `Tied with it is ${runnerUp.archetype}.`
              : `Your runner-up is ${runnerUp.archetype}.`}
          </strong>{" "}
          {runnerUpLines[runnerUp.archetype]}
        </p>
      )}
    </section>
  );
}

/**
 * The archetype's own address, shown as text, and a Share button: the phone's share sheet
 * where the browser has one, else a copy to the clipboard with a confirmation. The address
 * names the archetype only, never the answers or the saved result. Without JavaScript the
 * address is still there to copy by hand.
 */
export function ShareResult({ archetype }: { archetype: Archetype }) {
  const origin = useOrigin();
  const path = shareAddress(archetype);
  // The server knows the public address only when it is configured; the browser always does.
  const [base, setBase] = useState(origin ?? "");
  const [ready, setReady] = useState(false);
  const [status, setStatus] = useState("");
  useEffect(() => {
    setReady(true);
    if (!origin) setBase(window.location.origin);
  }, [origin]);
  const url = base + path;

  async function copy() {
    try {
      await navigator.clipboard.writeText(url);
      setStatus("Link copied. It names your archetype only, not your answers.");
    } catch {
      setStatus("Your browser did not let us copy it: select the address above and copy it yourself.");
    }
  }

  async function share() {
    setStatus("");
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title: `${archetype}: take the free persona quiz`, url });
        return;
      } catch (error) {
        // Closing the share sheet is a choice, not a failure.
        if (error instanceof DOMException && error.name === "AbortError") return;
      }
    }
    await copy();
  }

  return (
    <section className="share-result" aria-labelledby="share-heading">
      <h2 id="share-heading">Share your archetype</h2>
      <p>This link shows your archetype only. Your answers stay private.</p>
      <p className="share-address">
        <a href={path}>{url}</a>
      </p>
      {ready && (
        <button type="button" className="outline" onClick={share}>
          Share
        </button>
      )}
      <p role="status" className="share-status">
        {status}
      </p>
    </section>
  );
}
