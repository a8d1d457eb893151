import type { ReactNode } from "react";
import { useModalDialog } from "#web/ui/modal-dialog.ts";

/**
 * A record's form in a modal dialog, open while it is mounted. Its title and description are the
 * elements with the ids `<name>-dialog-title` and `<name>-dialog-description` among the children.
 * Escape closes it: after asking when the form holds unsaved changes.
 */
export function EditorDialog({
  name,
  editor,
  onClose,
  children,
}: {
  name: string;
  editor: { leave: (go: () => void) => void };
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useModalDialog(true);
  return (
    <dialog
      ref={ref}
      aria-labelledby={`${name}-dialog-title`}
      aria-describedby={`${name}-dialog-description`}
      onCancel={(event) => {
        event.preventDefault();
        editor.leave(onClose);
      }}
    >
      <article>{children}</article>
    </dialog>
  );
}
