/** Edit and Delete buttons for one row of an admin list, named for screen readers. */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <>
      <button type="button" className="secondary outline small-button" onClick={onEdit}>
        Edit<span className="visually-hidden"> {name}</span>
      </button>
      <button type="button" className="danger outline small-button" onClick={onDelete}>
        Delete<span className="visually-hidden"> {name}</span>
      </button>
    </>
  );
}
