import { useQuery } from "@tanstack/react-query";
import { NEW_LINK } from "#shared/features/links/contract.ts";
import { adminApi } from "#web/admin/admin-client.ts";
import { adminQuery } from "#web/admin/admin-queries.ts";
import { Field } from "#web/admin/field.tsx";

/** What a source's form holds for its managed link (docs/product.md#managed-links). */
export interface LinkPick {
  /** An existing link's slug, NEW_LINK, or "" for none picked yet. */
  linkSlug: string;
  newLinkSlug: string;
  newLinkDestination: string;
}

/** The form fields of a pick, for a source that has `slug` (a new source starts with a new link). */
export function linkPickOf(slug: string | null | undefined): LinkPick {
  return { linkSlug: slug || NEW_LINK, newLinkSlug: "", newLinkDestination: "" };
}

/**
 * The picker's messages. The form's own URL field follows the pick (a link's destination, or the
 * new link's), so the form's schema checks it; its message shows at the input that sets it.
 */
export function pickErrors(
  pick: LinkPick,
  error: (field: string) => string | undefined,
  urlField: string,
  prefix = "",
) {
  const url = error(urlField);
  const isNew = pick.linkSlug === NEW_LINK;
  return {
    linkSlug: error(`${prefix}linkSlug`) ?? (isNew ? undefined : url),
    newLinkSlug: error(`${prefix}newLinkSlug`),
    newLinkDestination: error(`${prefix}newLinkDestination`) ?? (isNew ? url : undefined),
  };
}

function host(destination: string): string {
  try {
    return new URL(destination).host;
  } catch {
    return destination;
  }
}

/**
 * The "Link" field of the offer, product and platform forms: a select with "New link…" first
 * (it shows a slug and a destination input), then the managed links (slug and destination
 * host; "(off)" for an inactive one, "(broken)" when its last check found it broken).
 * `onChange` also gets the destination the source will send visitors to, for the form's own
 * URL field. The server checks the pick and makes the new link in the same save.
 */
export function LinkPicker({
  label = "Link",
  newLabel = "New link's",
  value,
  onChange,
  errors,
}: {
  label?: string;
  /** The start of the new link's input labels ("New link's" slug, destination). */
  newLabel?: string;
  value: LinkPick;
  onChange: (pick: LinkPick, destination: string) => void;
  errors: { linkSlug?: string | undefined; newLinkSlug?: string | undefined; newLinkDestination?: string | undefined };
}) {
  const links = useQuery({ ...adminQuery(adminApi.links), staleTime: 10_000 });
  const all = links.data ?? [];
  const destinationOf = (slug: string) => all.find((link) => link.slug === slug)?.destination ?? "";
  const known = value.linkSlug === NEW_LINK || value.linkSlug === "" || all.some((l) => l.slug === value.linkSlug);
  const isNew = value.linkSlug === NEW_LINK;

  return (
    <div className="link-picker">
      <Field label={label} error={errors.linkSlug}>
        {(props) => (
          <select
            {...props}
            value={value.linkSlug}
            aria-busy={links.isPending || undefined}
            onChange={(e) => {
              const linkSlug = e.target.value;
              const pick = { ...value, linkSlug };
              onChange(pick, linkSlug === NEW_LINK ? value.newLinkDestination : destinationOf(linkSlug));
            }}
          >
            {value.linkSlug === "" && <option value="">Choose a link</option>}
            {/* First, so it is found without scrolling past every link. */}
            <option value={NEW_LINK}>New link…</option>
            {!known && <option value={value.linkSlug}>{value.linkSlug}</option>}
            {all.map((link) => (
              <option key={link.id} value={link.slug}>
                {link.slug} — {host(link.destination)}
                {link.active ? "" : " (off)"}
                {link.healthClass === "broken" ? " (broken)" : ""}
              </option>
            ))}
          </select>
        )}
      </Field>
      {isNew ? (
        <>
          <Field label={`${newLabel} slug`} error={errors.newLinkSlug}>
            {(props) => (
              <input
                {...props}
                value={value.newLinkSlug}
                autoCapitalize="none"
                spellCheck={false}
                placeholder="join-platform"
                onChange={(e) => onChange({ ...value, newLinkSlug: e.target.value }, value.newLinkDestination)}
              />
            )}
          </Field>
          <small className="hint">
            The short name in the address /go/&lt;slug&gt;: lower-case letters, digits and hyphens.
          </small>
          <Field label={`${newLabel} destination`} error={errors.newLinkDestination}>
            {(props) => (
              <input
                {...props}
                type="url"
                value={value.newLinkDestination}
                placeholder="https://"
                onChange={(e) => onChange({ ...value, newLinkDestination: e.target.value }, e.target.value)}
              />
            )}
          </Field>
        </>
      ) : (
        value.linkSlug && (
          <small className="hint">
            Visitors follow <code>/go/{value.linkSlug}</code> to {destinationOf(value.linkSlug) || "its destination"}.
            Change where it leads in the Links section.
          </small>
        )
      )}
    </div>
  );
}
