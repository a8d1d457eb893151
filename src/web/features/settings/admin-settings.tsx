import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import {
  isLocalOrigin,
  type PublicAddress,
  PublicAddressInput,
  SiteSettings,
} from "#shared/features/settings/contract.ts";
import { API } from "#shared/paths.ts";
import { ADMIN_API, useAdminMutation } from "#web/admin/admin-api.ts";
import { Field } from "#web/admin/field.tsx";
import { formErrors } from "#web/admin/form-errors.ts";
import { serverFieldErrors } from "#web/lib/query-client.ts";
import { toast } from "#web/stores/toast.ts";

/** Site settings: the brand, the two platforms, which one the banner names, and the public address. */
export function SettingsTab() {
  return (
    <>
      <SiteSettingsForm />
      <PublicAddressForm />
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
  const current = useQuery<PublicAddress>({ queryKey: [ADMIN_API.address] });
  const [value, setValue] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useAdminMutation<PublicAddressInput>("PUT", () => ADMIN_API.address, [[ADMIN_API.address]]);
  if (!current.data) return <p aria-busy="true">Loading the public address...</p>;
  const { origin, source } = current.data;
  const shown = value ?? origin ?? "";

  function submit(event: FormEvent) {
    event.preventDefault();
    const input = { origin: shown.trim() };
    const problems = formErrors(PublicAddressInput, input);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    save.mutate(input, {
      onSuccess: () => {
        setValue(null);
        toast({ title: "Success", description: "Public address saved" });
      },
      onError: (error) => {
        setErrors(serverFieldErrors(error));
        toast({ title: "Error", description: error.message, variant: "destructive" });
      },
    });
  }

  return (
    <form onSubmit={submit} noValidate className="admin-form" aria-labelledby="public-address-heading">
      <h2 id="public-address-heading">Public address</h2>
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
          <Field label="Address visitors use" error={errors.origin}>
            {(props) => (
              <input
                {...props}
                type="url"
                placeholder="https://example.com"
                value={shown}
                onChange={(e) => setValue(e.target.value)}
              />
            )}
          </Field>
          <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
            {source === "sign-in" && value === null ? "Confirm Address" : "Save Address"}
          </button>
        </>
      )}
    </form>
  );
}

function SiteSettingsForm() {
  const current = useQuery<SiteSettings>({ queryKey: [ADMIN_API.settings] });
  const [form, setForm] = useState<SiteSettings | null>(null);
  useEffect(() => {
    if (current.data && !form) setForm(current.data);
  }, [current.data, form]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useAdminMutation<SiteSettings>("PUT", () => ADMIN_API.settings, [[ADMIN_API.settings], [API.settings]]);

  if (!form) return <p aria-busy="true">Loading settings...</p>;
  const platform = (key: "platformA" | "platformB", field: "name" | "url", value: string) =>
    setForm({ ...form, [key]: { ...form[key], [field]: value } });

  function submit(event: FormEvent) {
    event.preventDefault();
    const problems = formErrors(SiteSettings, form);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    save.mutate(form!, {
      onSuccess: () => toast({ title: "Success", description: "Settings saved" }),
      onError: (error) => {
        setErrors(serverFieldErrors(error));
        toast({ title: "Error", description: "Failed to save settings. Please try again.", variant: "destructive" });
      },
    });
  }

  return (
    <form onSubmit={submit} noValidate className="admin-form">
      <h2>Site settings</h2>
      <Field label="Brand name" error={errors.brandName}>
        {(props) => (
          <input {...props} value={form.brandName} onChange={(e) => setForm({ ...form, brandName: e.target.value })} />
        )}
      </Field>
      {(["platformA", "platformB"] as const).map((key, i) => (
        <fieldset key={key}>
          <legend>Platform {i === 0 ? "one" : "two"}</legend>
          <Field label={`Platform ${i + 1} name`} error={errors[`${key}.name`]}>
            {(props) => (
              <input {...props} value={form[key].name} onChange={(e) => platform(key, "name", e.target.value)} />
            )}
          </Field>
          <Field label={`Platform ${i + 1} sign-up URL`} error={errors[`${key}.url`]}>
            {(props) => (
              <input
                {...props}
                type="url"
                value={form[key].url}
                onChange={(e) => platform(key, "url", e.target.value)}
              />
            )}
          </Field>
        </fieldset>
      ))}
      <fieldset>
        <legend>The promotional banner names</legend>
        {(["a", "b"] as const).map((value) => (
          <label key={value}>
            <input
              type="radio"
              name="banner"
              checked={form.bannerPlatform === value}
              onChange={() => setForm({ ...form, bannerPlatform: value })}
            />{" "}
            {value === "a" ? form.platformA.name : form.platformB.name}
          </label>
        ))}
      </fieldset>
      <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
        {save.isPending ? "Saving..." : "Save Settings"}
      </button>
    </form>
  );
}
