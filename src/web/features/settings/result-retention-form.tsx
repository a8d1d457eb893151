import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { ResultRetentionInput } from "#shared/features/settings/contract.ts";
import {
  describeRetention,
  MAX_RESULT_RETENTION_DAYS,
  type ResultRetention,
} from "#shared/features/settings/result-retention.ts";
import { adminApi } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminChange } from "#web/admin/admin-queries.ts";
import { adminDateTime } from "#web/admin/date-time.ts";
import { Field } from "#web/admin/field.tsx";
import { saveForm, useAdminForm } from "#web/admin/use-admin-form.tsx";

/** Settings' "Saved results" part: how many days anonymous quiz and calculator results are kept. */
export function ResultRetentionForm() {
  const current = useQuery(adminQuery(adminApi.settings["result-retention"]));
  if (!current.data) return <p aria-busy="true">Loading how long results are kept...</p>;
  return <ResultRetentionEditor current={current.data} />;
}

interface RetentionForm {
  days: number;
}

function ResultRetentionEditor({ current }: { current: ResultRetention }) {
  const hintId = useId();
  const editor = useAdminForm({
    initial: { days: current.days },
    schema: ResultRetentionInput,
    body: (form: RetentionForm) => ({ days: form.days }),
  });
  const { form, setForm, error } = editor;
  // The privacy page and the result pages say the number: the settings read is refreshed too.
  const save = useAdminChange((body: ResultRetentionInput) => adminApi.settings["result-retention"].put(body));
  const send = (body: ResultRetentionInput, value: RetentionForm) =>
    saveForm(editor, save, body, value, { saved: `Results are now kept for ${describeRetention(value.days)}` });
  const { lastRun } = current;

  return (
    <form {...editor.formProps(send)} className="admin-form" aria-labelledby="result-retention-heading">
      <h2 id="result-retention-heading">Saved results</h2>
      <p>
        Quiz and earnings results are saved without a name, so visitors can open their result page again. Results older
        than this are deleted every hour, and the privacy page states the number. Now:{" "}
        <strong>{describeRetention(current.days)}</strong>
        {current.stored === null ? " (the default)" : ""}.
        {lastRun && (
          <>
            <br />
            <small>
              Last check: {adminDateTime(lastRun.finishedAt)},{" "}
              {lastRun.deleted === 0
                ? "nothing to delete"
                : `${lastRun.deleted} result${lastRun.deleted === 1 ? "" : "s"} deleted`}
              .
            </small>
          </>
        )}
      </p>
      <Field label="Keep results for (days)" error={error("days")}>
        {(props) => (
          <>
            <input
              {...props}
              aria-describedby={props["aria-describedby"] ?? hintId}
              type="number"
              min={1}
              max={MAX_RESULT_RETENTION_DAYS}
              step={1}
              value={Number.isNaN(form.days) ? "" : form.days}
              onChange={(e) => setForm({ days: e.target.valueAsNumber })}
            />
            <small id={hintId}>
              From 1 to {MAX_RESULT_RETENTION_DAYS.toLocaleString("en-US")} days; the default is{" "}
              {describeRetention(current.defaultDays)}. A shorter time deletes the older results at once, without a
              restart; copies in backups go as those backups are replaced.
            </small>
          </>
        )}
      </Field>
      {editor.elsewhere}
      <button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
        Save Retention
      </button>
    </form>
  );
}
