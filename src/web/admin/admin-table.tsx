import type { ReactNode } from "react";
import { type ToastInput, toast } from "#web/stores/toast.ts";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { RowActions } from "./row-actions.tsx";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/**
 * A list of admin records with Edit and Delete on each row (and "View on site" where the record
 * has a public page). On a phone each row is a card: the cells stack under their column's name.
 * The roles are spelled out because some browsers drop a table's semantics once its rows are
 * displayed as blocks.
 */
export function AdminTable<T extends { id: number | string }>({
  columns,
  rows,
  name,
  view,
  onEdit,
  onDelete,
  actions,
}: {
  columns: Column<T>[];
  rows: T[];
  name: (row: T) => string;
  /** The record's public address, or null when visitors cannot see it. */
  view?: (row: T) => string | null;
  onEdit: (row: T) => void;
  /** Absent for records that are never deleted (their row has no Delete button). */
  onDelete?: (row: T) => void;
  /** The row's buttons in place of Edit and Delete. */
  actions?: (row: T) => ReactNode;
}) {
  return (
    <div className="table-scroll">
      <table className="admin-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              {columns.map((c) => (
                <td key={c.header} className={c.className} data-label={c.header}>
                  {c.cell(row)}
                </td>
              ))}
              <td className="actions-cell">
                {/* The cell stays a table cell (its row's lines stay level); the buttons line up inside. */}
                <div className="actions">
                  {actions?.(row) ?? (
                    <RowActions
                      name={name(row)}
                      view={view?.(row) ?? null}
                      onEdit={() => onEdit(row)}
                      onDelete={onDelete && (() => onDelete(row))}
                    />
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface Remover<Id> {
  mutate: (id: Id, callbacks: { onSuccess: () => void; onError: () => void; onSettled: () => void }) => void;
  isPending: boolean;
}

/** The delete confirmation for one record: the confirm dialog, then a success or failure toast. */
export function DeleteDialog<T extends { id: Id }, Id>({
  item,
  title,
  message,
  remove,
  success,
  failure,
  onClose,
  onDeleted,
}: {
  item: T | null;
  title: string;
  message: (item: T) => string;
  remove: Remover<Id>;
  success: ToastInput;
  failure: ToastInput;
  onClose: () => void;
  /** After a delete that succeeded, before the dialog closes. */
  onDeleted?: () => void;
}) {
  return (
    <ConfirmDialog
      open={item !== null}
      title={title}
      message={item ? message(item) : ""}
      busy={remove.isPending}
      onCancel={onClose}
      onConfirm={() =>
        remove.mutate(item!.id, {
          onSuccess: () => {
            toast(success);
            onDeleted?.();
          },
          onError: () => toast({ ...failure, variant: "destructive" }),
          onSettled: onClose,
        })
      }
    />
  );
}

/**
 * The delete confirmation in the standard wording, for a record named by its title: "Delete
 * <Noun>", asked by the title, then "<Noun> deleted successfully" or "Failed to delete <noun>.".
 */
export function DeleteRecordDialog<T extends { id: Id; title: string }, Id>({
  noun,
  ...props
}: {
  noun: string;
  item: T | null;
  remove: Remover<Id>;
  onClose: () => void;
}) {
  const capital = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <DeleteDialog
      {...props}
      title={`Delete ${noun.replace(/\b\w/g, (letter) => letter.toUpperCase())}`}
      message={(item) => `Are you sure you want to delete "${item.title}"? This action cannot be undone.`}
      success={{ title: "Success", description: `${capital} deleted successfully` }}
      failure={{ title: "Error", description: `Failed to delete ${noun}.` }}
    />
  );
}

/** An empty list: what is missing, and the button that makes the first record. */
export function EmptyList({ text, action, onAction }: { text: string; action: string; onAction: () => void }) {
  return (
    <div className="empty-state">
      <p>{text}</p>
      <button type="button" onClick={onAction}>
        {action}
      </button>
    </div>
  );
}
