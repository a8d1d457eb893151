import { useId } from "react";

/** The library's search box: alt text, file name or where an upload is used. */
export function MediaSearch({ value, onChange }: { value: string; onChange: (query: string) => void }) {
  const id = useId();
  return (
    <div className="media-search">
      <label htmlFor={id}>Search</label>
      <input
        id={id}
        type="search"
        placeholder="Alt text, file name or where it is used"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
