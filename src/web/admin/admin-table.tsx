import type { ReactNode } from "react";
import { type ToastInput, toast } from "#web/stores/toast.ts";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import { RowActions } from "./row-actions.tsx";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

/** A list of admin records with Edit and Delete on each row. */
export function AdminTable<T extends { id: number | string }>({
  columns,
  rows,
  name,
  onEdit,
  onDelete,
}: {
  columns: Column<T>[];
  rows: T[];
  name: (row: T) => string;
  onEdit: (row: T) => void;
  onDelete: (row: T) => void;
}) {
  return (
    <div className="table-scroll">
      <table>
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
                <td key={c.header} className={c.className}>
                  {c.cell(row)}
                </td>
              ))}
              <td className="actions">
                <RowActions name={name(row)} onEdit={() => onEdit(row)} onDelete={() => onDelete(row)} />
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
}: {
  item: T | null;
  title: string;
  message: (item: T) => string;
  remove: Remover<Id>;
  success: ToastInput;
  failure: ToastInput;
  onClose: () => void;
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
          onSuccess: () => toast(success),
          onError: () => toast({ ...failure, variant: "destructive" }),
          onSettled: onClose,
        })
      }
    />
  );
}
