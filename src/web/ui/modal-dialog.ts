import { type SyntheticEvent, useEffect, useRef } from "react";

/**
 * Opens the native <dialog> the returned ref is on as a modal while `open` holds (the browser
 * traps the focus and Escape cancels) and closes it when `open` ends.
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal?.();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return ref;
}

/**
 * Whether a dialog's `close` event finds it closed. The browser sends the event after the
 * closing itself (at the next frame in Chromium), so a dialog closed and opened again in
 * between, as a busy phone can do, gets the earlier closing's event while open again: that
 * one must not close it a second time.
 */
export function closedNow(event: SyntheticEvent<HTMLDialogElement>): boolean {
  return !event.currentTarget.open;
}
