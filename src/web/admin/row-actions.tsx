/**
 * Edit and Delete buttons for one row of an admin list, named for screen readers; "View on site"
 * (in a new tab) when the record has a public page. Delete only where the record can be deleted:
 * a button that does nothing tells the admin something false.
 */
export function RowActions({
  name,
  view = null,
  onEdit,
  onDelete,
}: {
  name: string;
  view?: string | null;
  onEdit: () => void;
  onDelete?: () => void;
}) {
  return (
    <>
      {view && (
        <a href={view} target="_blank" rel="noopener" className="small-button view-link">
          View on site<span className="visually-hidden"> {name} (opens in a new tab)</span>
        </a>
      )}
      <button type="button" className="secondary outline small-button" onClick={onEdit}>
        Edit<span className="visually-hidden"> {name}</span>
      </button>
      {onDelete && (
        <button type="button" className="danger outline small-button" onClick={onDelete}>
          Delete<span className="visually-hidden"> {name}</span>
        </button>
      )}
    </>
  );
}
