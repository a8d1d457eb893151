import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { DEFAULT_DISCLOSURE_WORDING, type DisclosureWording } from "#shared/features/disclosure/constants.ts";
import {
  assumeHttps,
  isLocalOrigin,
  type PublicAddress,
  PublicAddressInput,
  SiteSettings,
} from "#shared/features/settings/contract.ts";
import {
  describeLinkCheckHours,
  LINK_CHECK_CHOICES,
  LinkCheckInput,
  type LinkCheckSchedule,
} from "#shared/features/settings/link-checks.ts";
import { adminApi } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { Field, NumberField, TextField } from "#web/admin/field.tsx";
import { saveForm, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { BackupScheduleForm } from "#web/features/backups/backup-schedule-form.tsx";
import { ProxyNoticeFromHome } from "#web/features/home/proxy-notice.tsx";
import { LinkPicker, linkPickOf, pickErrors } from "#web/features/links/link-picker.tsx";
import { ResultRetentionForm } from "./result-retention-form.tsx";

/**
 * Site settings: the brand, the two platforms, which one the banner names, the claims the site
 * makes about itself, and the public address.
 */
export function SettingsTab() {
  return (
    <>
      <ProxyNoticeFromHome />
      <SiteSettingsForm />
      <PublicAddressForm />
      <LinkCheckForm />
      <ResultRetentionForm />
      <BackupScheduleForm />
    </>
  );
}

const SOURCE_NOTE: Record<PublicAddress["source"], string> = {
  environment: "Set by PUBLIC_URL on the server: change it there.",
  confirmed: "Confirmed by you.",
  "sign-in": "Taken from the address you signed in at. Confirm it, or enter the address visitors use.",
  none: "Not known yet: pages use relative links, and the sitemap and RSS feed are not served until it is set. Sign in once at the address visitors use, or enter it here.",
};

/** The address links in feeds, the sitemap and search-engine tags start with. */
function PublicAddressForm() {
  const current = useQuery(adminQuery(adminApi.settings.address));
  if (!current.data) return <p aria-busy="true">Loading the public address...</p>;
  return <PublicAddressEditor current={current.data} />;
}

function PublicAddressEditor({ current: { origin, source } }: { current: PublicAddress }) {
  const editor = useAdminForm({
    initial: { origin: origin ?? "" },
    schema: PublicAddressInput,
    body: (form: PublicAddressInput) => ({ origin: assumeHttps(form.origin) }),
  });
  const save = useAdminChange((body: PublicAddressInput) => adminApi.settings.address.put(body));

  const send = (body: PublicAddressInput, value: PublicAddressInput) =>
    saveForm(editor, save, body, value, { saved: "Public address saved", next: body });

  return (
    <form {...editor.formProps(send)} className="admin-form" aria-labelledby="public-address-heading">
      <h2 id="public-address-heading">Public address</h2>
      <p>
        <small>
          The address visitors type to reach your site, such as example.com (https:// is assumed) or http://example.com.
          Search engines, the RSS feed, the sitemap and links shared on social media are given this address.
        </small>
      </p>
      <p>
        Links in feeds and search engines use: <strong>{origin ?? "no address yet"}</strong>
        <br />
        <small>{SOURCE_NOTE[source]}</small>
      </p>
      {origin && isLocalOrigin(origin) && (
        <p role="note">
          <strong>Only this computer or your local network can reach this address.</strong> Search engines and visitors
          cannot follow its links: enter the address visitors use, such as https://example.com.
        </p>
      )}
      {source !== "environment" && (
        <>
          <TextField
            label="Address visitors use"
            inputMode="url"
            autoComplete="url"
            placeholder="example.com"
            {...editor.bind("origin")}
          />
          {editor.elsewhere}
          <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
            {source === "sign-in" && !editor.dirty ? "Confirm Address" : "Save Address"}
          </button>
        </>
      )}
    </form>
  );
}

function SiteSettingsForm() {
  const current = useQuery(adminQuery(adminApi.settings));
  if (!current.data) return <p aria-busy="true">Loading settings...</p>;
  return <SiteSettingsEditor current={current.data} />;
}

function SiteSettingsEditor({ current }: { current: SiteSettings }) {
  const editor = useAdminForm({
    initial: {
      ...current,
      platformA: { ...current.platformA, ...linkPickOf(current.platformA.linkSlug) },
      platformB: { ...current.platformB, ...linkPickOf(current.platformB.linkSlug) },
      disclosureWording: current.disclosureWording ?? {},
    },
    schema: SiteSettings,
  });
  const { form, setForm, error } = editor;
  const save = useAdminChange((body: SiteSettings) => adminApi.settings.put(body));

  const platform = (key: "platformA" | "platformB", field: "name", value: string) =>
    setForm({ ...form, [key]: { ...form[key], [field]: value } });

  const send = (_body: typeof form, value: typeof form) =>
    saveForm(editor, save, value, value, {
      saved: "Settings saved",
      failed: "Failed to save settings. Please try again.",
    });

  return (
    <form {...editor.formProps(send)} className="admin-form">
      <h2>Site settings</h2>
      <p>
        <small>Saved changes show on every page within seconds.</small>
      </p>
      <ClaimField
        label="Brand name"
        hint="Your site's name: in the header, the footer and every page's title (the words in browser tabs and search results). At most 60 characters."
        error={error("brandName")}
        value={form.brandName}
        onChange={(value) => setForm({ ...form, brandName: value })}
      />
      <p>
        <small>
          The two platforms are the cam sites you recommend. Their names show on the “Join” buttons after the quiz and
          the earnings calculator, in the course and on the resources page, and in the footer. Visitors who click go to
          the platform's link: pick one of your links (Links counts its clicks) or make a new one.
        </small>
      </p>
      {(["platformA", "platformB"] as const).map((key, i) => (
        <fieldset key={key}>
          <legend>Platform {i === 0 ? "one" : "two"}</legend>
          <Field label={`Platform ${i + 1} name`} error={error(`${key}.name`)}>
            {(props) => (
              <input {...props} value={form[key].name} onChange={(e) => platform(key, "name", e.target.value)} />
            )}
          </Field>
          <LinkPicker
            label={`Platform ${i + 1} link`}
            newLabel={`Platform ${i + 1} new link's`}
            value={form[key]}
            onChange={(pick, url) => setForm({ ...form, [key]: { ...form[key], ...pick, url: url || form[key].url } })}
            errors={pickErrors(
              { linkSlug: form[key].linkSlug ?? "", newLinkSlug: "", newLinkDestination: "" },
              error,
              `${key}.url`,
              `${key}.`,
            )}
          />
        </fieldset>
      ))}
      <fieldset>
        <legend>Platform in the sponsored banner</legend>
        <p>
          <small>
            The banner above the quiz result, the starter kit and the earnings calculator invites visitors to join this
            platform.
          </small>
        </p>
        {(["a", "b"] as const).map((value) => (
          <label key={value}>
            <input
              type="radio"
              name="banner"
              checked={form.bannerPlatform === value}
              aria-invalid={error("bannerPlatform") ? true : undefined}
              onChange={() => setForm({ ...form, bannerPlatform: value })}
            />{" "}
            {value === "a" ? form.platformA.name : form.platformB.name}
          </label>
        ))}
        {error("bannerPlatform") && <small className="field-error">{error("bannerPlatform")}</small>}
      </fieldset>
      <fieldset>
        <legend>What the site says about itself</legend>
        <p>
          <small>
            Visitors read these as facts about your site. Change them to your own, or leave one empty to hide it. Only
            state what you can back up.
          </small>
        </p>
        {CLAIMS.map(({ key, label, hint, rows }) => (
          <ClaimField
            key={key}
            label={label}
            hint={hint}
            rows={rows}
            error={error(key)}
            value={form[key]}
            onChange={(value) => setForm({ ...form, [key]: value })}
          />
        ))}
      </fieldset>
      <fieldset>
        <legend>Graduation gifts</legend>
        <p>
          <small>
            Visitors who complete the course are offered these on the graduation page, beside the resource library. A
            gift is shown only once it is set: leave the code or the address empty to leave it out.
          </small>
        </p>
        <ClaimField
          label="Discount code"
          hint="A code your partner gave you for your visitors, such as GRAD20 (letters, digits, - and _)."
          error={error("giftDiscountCode")}
          value={form.giftDiscountCode}
          onChange={(value) => setForm({ ...form, giftDiscountCode: value })}
        />
        <ClaimField
          label="Where the code works"
          hint="The shop or platform that honours the code, such as the shop your starter kit links to."
          error={error("giftDiscountPartner")}
          value={form.giftDiscountPartner}
          onChange={(value) => setForm({ ...form, giftDiscountPartner: value })}
        />
        <NumberField
          label="Discount in percent"
          error={error("giftDiscountPercent")}
          min={1}
          max={90}
          value={form.giftDiscountPercent}
          onChange={(text) => setForm({ ...form, giftDiscountPercent: text === "" ? null : Number(text) })}
        />
        <ClaimField
          label="Community address"
          hint="A forum, server or group for performers you recommend, such as https://example.com/community."
          error={error("communityUrl")}
          value={form.communityUrl}
          onChange={(value) => setForm({ ...form, communityUrl: value })}
        />
      </fieldset>
      <fieldset>
        <legend>Who runs the site</legend>
        <p>
          <small>
            The Terms and Privacy pages tell visitors who is responsible for the site and how to reach them. Until both
            are set, those pages say that you have not published them yet.
          </small>
        </p>
        <ClaimField
          label="Operator's legal name"
          hint="Your name or your business's registered name, as it would appear on an invoice."
          error={error("operatorName")}
          value={form.operatorName ?? ""}
          onChange={(value) => setForm({ ...form, operatorName: value })}
        />
        <ClaimField
          label="Contact address"
          hint="An email address (such as owner@example.com) or a web page with a contact form (starting with https://)."
          error={error("operatorContact")}
          value={form.operatorContact ?? ""}
          onChange={(value) => setForm({ ...form, operatorContact: value })}
        />
      </fieldset>
      <fieldset>
        <legend>Disclosure wording</legend>
        <p>
          <small>
            The law and the platforms ask you to tell visitors which links earn you money. These are the labels beside
            those links and the short note near the first one on a page. Plain text; leave a part empty to use the
            default shown in it (a label can be reworded, never removed).
          </small>
        </p>
        {WORDING.map(({ key, label, hint, rows }) => (
          <ClaimField
            key={key}
            label={label}
            hint={`${hint} Default: ${DEFAULT_DISCLOSURE_WORDING[key]}`}
            placeholder={DEFAULT_DISCLOSURE_WORDING[key]}
            rows={rows}
            error={error(`disclosureWording.${key}`)}
            value={form.disclosureWording?.[key] ?? ""}
            onChange={(value) => setForm({ ...form, disclosureWording: { ...form.disclosureWording, [key]: value } })}
          />
        ))}
      </fieldset>
      {editor.elsewhere}
      <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
        {save.isPending ? "Saving..." : "Save Settings"}
      </button>
    </form>
  );
}

type ClaimKey = "incomeFigure" | "modelsHelpedFigure" | "testimonialQuote" | "testimonialAttribution" | "bannerClaim";

const CLAIMS: { key: ClaimKey; label: string; hint: string; rows?: number }[] = [
  {
    key: "incomeFigure",
    label: "Income figure",
    hint: "On the home page above “Potential monthly income for top performers”, such as $10k+. Leave empty to hide it.",
  },
  {
    key: "modelsHelpedFigure",
    label: "Models helped figure",
    hint: "On the home page above “Cam models helped”, such as 10,000+. Leave empty to hide it.",
  },
  {
    key: "testimonialQuote",
    label: "Testimonial",
    hint: "A member’s own words on the home page, without quotation marks: the page adds them and the note “One member’s experience; results vary.” Only quote someone who said it and agreed to be quoted. Leave empty to hide the whole testimonial.",
    rows: 4,
  },
  {
    key: "testimonialAttribution",
    label: "Testimonial from",
    hint: "Who said it, such as: Jess, Girl Next Door archetype. Leave empty to show the words without a name.",
  },
  {
    key: "bannerClaim",
    label: "Banner claim",
    hint: "The sponsored banner’s second sentence, after “Join {platform} today and start earning!” Write {platform} where the platform’s name goes. Leave empty to hide it.",
  },
];

const WORDING: { key: keyof DisclosureWording; label: string; hint: string; rows?: number }[] = [
  {
    key: "sponsored",
    label: "Sponsored label",
    hint: "On offer cards and the promotional banner. At most 40 characters.",
  },
  {
    key: "affiliate",
    label: "Affiliate link label",
    hint: "Beside platform buttons, footer platform links and product links. At most 40 characters.",
  },
  {
    key: "note",
    label: "Disclosure note",
    hint: "Near a page's first affiliate link. Write {affiliate} and {sponsored} where the labels go, so the note names the words visitors see. At most 300 characters.",
    rows: 3,
  },
  { key: "linkText", label: "Note's link text", hint: "Links to the terms page's disclosure. At most 40 characters." },
  {
    key: "offerNote",
    label: "Offer card note",
    hint: "The note's one-line form in an offer card ({sponsored} and {affiliate} work here too). At most 300 characters.",
  },
  { key: "offerLinkText", label: "Offer card link text", hint: "Its link's text. At most 40 characters." },
];

/** A text field for one claim, with a plain-words note on where it shows and how to hide it. */
function ClaimField({
  label,
  hint,
  placeholder,
  rows,
  error,
  value,
  onChange,
}: {
  label: string;
  hint: string;
  placeholder?: string;
  rows?: number;
  error?: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const hintId = useId();
  return (
    <Field label={label} error={error}>
      {(props) => {
        // The note describes the control until a problem does.
        const control = { ...props, "aria-describedby": props["aria-describedby"] ?? hintId };
        return (
          <>
            {rows ? (
              <textarea
                {...control}
                rows={rows}
                placeholder={placeholder}
                value={value}
                onChange={(e) => onChange(e.target.value)}
              />
            ) : (
              <input {...control} placeholder={placeholder} value={value} onChange={(e) => onChange(e.target.value)} />
            )}
            <small id={hintId}>{hint}</small>
          </>
        );
      }}
    </Field>
  );
}

/** "Weekly", "Off": a schedule's words at the start of a sentence or an option. */
const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The option for a number of hours (0: off). */
function hoursLabel(hours: number): string {
  return hours === 0 ? "Off: only when I press “Check all links now”" : capital(describeLinkCheckHours(hours));
}

/** How often the server checks every link's destination by itself. */
function LinkCheckForm() {
  const current = useQuery(adminQuery(adminApi.settings["link-checks"]));
  if (!current.data) return <p aria-busy="true">Loading the link-check schedule...</p>;
  return <LinkCheckEditor key={`${current.data.source}:${current.data.stored}`} current={current.data} />;
}

/** The select's value: "default", or a number of hours (0: off). */
interface LinkCheckForm {
  choice: string;
}

function LinkCheckEditor({ current }: { current: LinkCheckSchedule }) {
  const hintId = useId();
  const editor = useAdminForm({
    initial: { choice: current.stored === null ? "default" : String(current.stored) },
    schema: LinkCheckInput,
    body: (form: LinkCheckForm) => ({ hours: form.choice === "default" ? null : Number(form.choice) }),
  });
  const { form, setForm, error } = editor;
  const save = useAdminChange((body: LinkCheckInput) => adminApi.settings["link-checks"].put(body));
  const send = (body: LinkCheckInput, value: LinkCheckForm) =>
    saveForm(editor, save, body, value, { saved: "Link-check schedule saved" });
  // A value saved by other means that is not one of the choices stays choosable.
  const choices: number[] = [...LINK_CHECK_CHOICES];
  if (current.stored !== null && !choices.includes(current.stored)) choices.push(current.stored);
  const now = current.hours === null ? "off" : describeLinkCheckHours(current.hours);

  return (
    <form {...editor.formProps(send)} className="admin-form" aria-labelledby="link-checks-heading">
      <h2 id="link-checks-heading">Automatic link checks</h2>
      <p>
        The server visits each link's destination by itself to find broken links before visitors do (the Links section
        shows what it found). Now: <strong>{now}</strong>.
      </p>
      {current.source === "environment" ? (
        <p>
          <small>Set by LINK_CHECK_INTERVAL on the server: change it there.</small>
        </p>
      ) : (
        <>
          <Field label="Check links" error={error("hours")}>
            {(props) => (
              <>
                <select
                  {...props}
                  aria-describedby={props["aria-describedby"] ?? hintId}
                  value={form.choice}
                  onChange={(e) => setForm({ choice: e.target.value })}
                >
                  <option value="default">
                    {current.defaultHours === null
                      ? "The default (off)"
                      : `The default (${describeLinkCheckHours(current.defaultHours)})`}
                  </option>
                  {choices.map((hours) => (
                    <option key={hours} value={String(hours)}>
                      {hoursLabel(hours)}
                    </option>
                  ))}
                </select>
                <small id={hintId}>
                  A change applies at once, no restart needed. Checking more often finds a broken link sooner; each
                  check is one visit to each destination.
                </small>
              </>
            )}
          </Field>
          {editor.elsewhere}
          <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
            Save Schedule
          </button>
        </>
      )}
    </form>
  );
}
