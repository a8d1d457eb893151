import { PREVIEW_PATH } from "#shared/features/blog/constants.ts";

/**
 * "Preview": opens the post as it will look on the site, from the form as it is now (saved
 * or not), in a new tab. The form is posted to the admin's preview address, which renders
 * the public page; nothing is saved.
 */
export function PreviewButton({ body, id }: { body: () => unknown; id: number | null }) {
  const open = () => {
    const form = document.createElement("form");
    form.method = "POST";
    form.action = PREVIEW_PATH;
    form.target = "_blank";
    form.hidden = true;
    for (const [name, value] of [
      ["post", JSON.stringify(body())],
      ["id", id ? String(id) : ""],
    ] as const) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
    form.remove();
  };
  return (
    <button type="button" className="secondary outline" onClick={open}>
      Preview<span className="visually-hidden"> the post as it will look (opens in a new tab)</span>
    </button>
  );
}
