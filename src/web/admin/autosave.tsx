import { useCallback, useEffect, useRef, useState } from "react";
import type { Autosave } from "#shared/features/editor/contract.ts";
import { adminApi, answer, at, backgroundApi } from "#web/admin/admin-client.ts";
import { adminDateTime } from "#web/admin/date-time.ts";
import { ApiError } from "#web/lib/query-client.ts";
import { useSessionStore } from "#web/stores/session.ts";

/** How long after the last change the editor saves its copy by itself. */
const AUTOSAVE_DELAY_MS = 3000;

type Fields = Record<string, string | boolean | number | null>;

/** Where this browser keeps an editor's copy (the server keeps one too). */
const storageKey = (key: string) => `autosave:${key}`;

function readLocal(key: string): Autosave | null {
  try {
    const raw = localStorage.getItem(storageKey(key));
    if (!raw) return null;
    const value = JSON.parse(raw) as Autosave;
    return value && typeof value.savedAt === "string" && value.body && typeof value.body === "object" ? value : null;
  } catch {
    return null;
  }
}

function writeLocal(value: Autosave): void {
  try {
    localStorage.setItem(storageKey(value.key), JSON.stringify(value));
  } catch {
    // A full or disabled storage: the server's copy remains.
  }
}

function removeLocal(key: string): void {
  try {
    localStorage.removeItem(storageKey(key));
  } catch {}
}

/** A time of day as the admin reads it: "14:03". */
const clockTime = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

/** A date and time as the admin reads them. */

export interface AutosaveState {
  /**
   * The newest copy found when the editor opened, newer than the saved record and different
   * from it: offered back until the form changes (what is typed then is newer still).
   */
  offer: Autosave | null;
  /** What the form says about its saving: "Saved as a draft copy at 14:03", or null. */
  status: string | null;
  restore: () => void;
  discard: () => void;
  /** The record was saved: the copies go (the server drops its own when it saves the record). */
  saved: () => void;
}

/** The newest of the copies, by when each was kept. */
function newestCopy(copies: (Autosave | null)[]): Autosave | null {
  let newest: Autosave | null = null;
  for (const copy of copies) {
    if (
      copy &&
      !Number.isNaN(Date.parse(copy.savedAt)) &&
      (!newest || Date.parse(copy.savedAt) > Date.parse(newest.savedAt))
    )
      newest = copy;
  }
  return newest;
}

/**
 * An editor's autosave: while the form differs from the saved record its fields are kept in
 * this browser at every change and on the server a few seconds after the last one, under `key`
 * ("post:12", "post:new"), never in the record itself. When the editor opens, the newest copy
 * (this browser's or the server's) is offered back (`offer`, then `restore` or `discard`) if it
 * is newer than the saved record and holds something else, and only while the form is as it
 * opened: a copy is never offered over what the admin has typed since.
 */
export function useAutosave<T extends object>({
  key,
  form,
  dirty,
  savedAt,
  onRestore,
  delay = AUTOSAVE_DELAY_MS,
}: {
  key: string;
  form: T;
  /** Whether the form differs from the saved record: only then is a copy kept. */
  dirty: boolean;
  /** When the record was last saved (ISO), or null for a new one. */
  savedAt: string | null;
  onRestore: (fields: Partial<T>) => void;
  delay?: number;
}): AutosaveState {
  const [offer, setOffer] = useState<Autosave | null>(null);
  const [status, setStatus] = useState<string | null>(savedAt ? `Last saved ${adminDateTime(savedAt)}` : null);
  const [ready, setReady] = useState(false);
  const text = JSON.stringify(form);
  const formRef = useRef(form);
  formRef.current = form;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const lastKept = useRef<string | null>(null);
  // The server refused the last copy for a session that ended: once signed in again, the
  // same text is sent again (and the line stops saying the admin is signed out).
  const refusedSignedOut = useRef(false);
  const signedOut = useSessionStore((state) => state.ended);
  // The form's text when the copy was offered: any change withdraws the offer.
  const offeredOver = useRef<string | null>(null);

  // On opening: the newest copy, this browser's or the server's, if it is newer than the record.
  useEffect(() => {
    let live = true;
    (async () => {
      const local = readLocal(key);
      const server = await answer(at(backgroundApi.autosave, { key }).get())
        .then((kept) => kept.autosave)
        .catch(() => null);
      if (!live) return;
      const newest = newestCopy([local, server]);
      const newer = newest && (!savedAt || Date.parse(newest.savedAt) > Date.parse(savedAt));
      const differs =
        newest &&
        Object.entries(newest.body).some(
          ([field, value]) =>
            JSON.stringify((formRef.current as Record<string, unknown>)[field]) !== JSON.stringify(value),
        );
      if (dirtyRef.current) {
        // Typed into already (or the record changed under an open form): what the form holds
        // is the newest; the next kept copy replaces the old ones.
      } else if (newest && newer && differs) {
        offeredOver.current = JSON.stringify(formRef.current);
        setOffer(newest);
      } else if (newest) {
        // An old or identical copy is of no use.
        removeLocal(key);
        if (server) void answer(at(backgroundApi.autosave, { key }).delete()).catch(() => {});
      }
      setReady(true);
    })();
    return () => {
      live = false;
    };
  }, [key, savedAt]);

  // A change made while a copy is offered: the form now holds the newest text.
  useEffect(() => {
    if (offer && text !== offeredOver.current) setOffer(null);
  }, [offer, text]);

  // This browser's copy at every change, so the last keystroke is kept even if the page is
  // closed at once or the server refuses (a session that ended); the server's a few seconds later.
  useEffect(() => {
    const again = !signedOut && refusedSignedOut.current;
    if (!ready || offer || !dirty || (text === lastKept.current && !again)) return;
    const copy: Autosave = { key, body: JSON.parse(text) as Fields, savedAt: new Date().toISOString() };
    writeLocal(copy);
    const timer = setTimeout(async () => {
      lastKept.current = text;
      try {
        const kept = await answer(at(backgroundApi.autosave, { key }).put({ body: copy.body }));
        refusedSignedOut.current = false;
        setStatus(`Saved as a draft copy at ${clockTime(kept.savedAt)}`);
      } catch (error) {
        const refused = error instanceof ApiError && error.status === 401;
        refusedSignedOut.current = refused;
        const why = refused ? "you are signed out: sign in again to save" : "the server could not be reached";
        setStatus(`Saved as a draft copy in this browser at ${clockTime(copy.savedAt)} (${why})`);
      }
    }, delay);
    return () => clearTimeout(timer);
  }, [ready, offer, dirty, text, key, delay, signedOut]);

  const discard = useCallback(() => {
    setOffer(null);
    removeLocal(key);
    void answer(at(adminApi.autosave, { key }).delete()).catch(() => {});
  }, [key]);

  return {
    offer,
    status,
    restore: () => {
      if (!offer) return;
      onRestore(offer.body as Partial<T>);
      setStatus(`Restored the draft copy from ${adminDateTime(offer.savedAt)}: save to keep it`);
      setOffer(null);
    },
    discard,
    saved: () => {
      removeLocal(key);
      lastKept.current = null;
      setStatus(`Last saved ${adminDateTime(new Date().toISOString())}`);
    },
  };
}

/** "Restore unsaved changes from …" / "Discard", above the form when a newer copy was found. */
export function RestorePrompt({ autosave }: { autosave: Pick<AutosaveState, "offer" | "restore" | "discard"> }) {
  if (!autosave.offer) return null;
  return (
    <div className="autosave-restore" role="status">
      <p>
        This editor holds changes that were not saved, from <strong>{adminDateTime(autosave.offer.savedAt)}</strong>.
      </p>
      <button type="button" onClick={autosave.restore}>
        Restore unsaved changes from {adminDateTime(autosave.offer.savedAt)}
      </button>
      <button type="button" className="secondary outline" onClick={autosave.discard}>
        Discard
      </button>
    </div>
  );
}

/** "Saved as a draft copy at 14:03" / "Last saved …", announced politely. */
export function AutosaveStatus({ status }: { status: string | null }) {
  return (
    <p className="autosave-status" role="status" aria-live="polite">
      {status ?? ""}
    </p>
  );
}
