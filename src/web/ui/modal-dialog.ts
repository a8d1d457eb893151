import { useEffect, useRef } from "react";

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
