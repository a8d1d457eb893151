import { Link } from "wouter";
import type { SetupItem, SetupItemId } from "#shared/features/home/setup.ts";
import { adminApi, at } from "#web/admin/admin-client.ts";
import { useAdminChange } from "#web/admin/admin-queries.ts";

/**
 * What a new site still shows as shipped, or lacks, before it can earn and be honest with its
 * visitors (docs/product.md#setup-checklist). Each item leads to where it is fixed, and goes
 * by itself once it is; "This is right for my site" puts it away for good.
 */
export function SetupChecklist({ items }: { items: SetupItem[] }) {
  const confirm = useAdminChange((item: SetupItemId) => at(adminApi.home.setup, { item }).put());
  if (items.length === 0) return null;
  return (
    <section className="home-setup" aria-labelledby="home-setup-heading">
      <h3 id="home-setup-heading">Finish setting up your site</h3>
      <p>
        <small>
          Found in your site as it is now. Each item goes once it is done; confirm one if it is already right for your
          site.
        </small>
      </p>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <p>
              <strong>{item.title}</strong>
              <br />
              {item.detail}
            </p>
            <div className="button-row">
              <Link href={item.href} role="button" className="secondary">
                {item.action}
              </Link>
              <button
                type="button"
                className="secondary outline"
                disabled={confirm.isPending}
                onClick={() => confirm.mutate(item.id)}
              >
                This is right for my site<span className="visually-hidden">: {item.title}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
