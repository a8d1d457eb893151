import { useId } from "react";
import { closedNow, useModalDialog } from "#web/ui/modal-dialog.ts";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  confirmLabel?: string;
  busy?: boolean;
  /** The action cannot be taken (the message says why): the button stays, unusable. */
  blocked?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A modal confirmation on the native <dialog>: focus is trapped and Escape cancels. */
export function ConfirmDialog({
  open,
  title,
  message,
  confirmLabel = "Delete",
  busy,
  blocked = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const ref = useModalDialog(open);
  // A page may hold several (Delete and Reset on Pages): each title its own id.
  const titleId = useId();
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={onCancel}
      onClose={(event) => open && closedNow(event) && onCancel()}
    >
      <article>
        <h2 id={titleId}>{title}</h2>
        <p>{message}</p>
        <footer className="dialog-actions">
          <button type="button" className="secondary outline" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="danger" onClick={onConfirm} disabled={busy || blocked} aria-busy={busy}>
            {confirmLabel}
          </button>
        </footer>
      </article>
    </dialog>
  );
}
