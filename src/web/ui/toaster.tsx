import { type PointerEvent, useEffect, useRef } from "react";
import { SWIPE_THRESHOLD, type Toast, useToastStore } from "#web/stores/toast.ts";

export function Toaster() {
  const toasts = useToastStore((s) => s.toasts);
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    // F8 moves focus to the notifications, as the region's label announces.
    function onKey(event: KeyboardEvent) {
      if (event.key === "F8") {
        event.preventDefault();
        region.current?.focus();
      }
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return (
    <section ref={region} className="toaster" aria-label="Notifications (F8)" tabIndex={-1}>
      <ol>
        {toasts
          .filter((t) => t.open)
          .map((t) => (
            <ToastItem key={t.id} toast={t} />
          ))}
      </ol>
    </section>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const dismiss = useToastStore((s) => s.dismiss);
  const start = useRef<number | null>(null);
  const item = useRef<HTMLLIElement>(null);

  function onPointerDown(e: PointerEvent<HTMLLIElement>) {
    start.current = e.clientX;
  }
  function onPointerMove(e: PointerEvent<HTMLLIElement>) {
    if (start.current === null || !item.current) return;
    const dx = Math.max(0, e.clientX - start.current);
    item.current.style.transform = `translateX(${dx}px)`;
  }
  function onPointerEnd(e: PointerEvent<HTMLLIElement>) {
    if (start.current === null) return;
    const dx = e.clientX - start.current;
    start.current = null;
    if (dx > SWIPE_THRESHOLD) dismiss(toast.id);
    else if (item.current) item.current.style.transform = "";
  }

  const destructive = toast.variant === "destructive";
  return (
    <li
      ref={item}
      className={destructive ? "toast destructive" : "toast"}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      data-testid="toast"
    >
      {/* The live role sits inside the item so the list keeps its list semantics. */}
      <div role={destructive ? "alert" : "status"} aria-atomic="true">
        {toast.title && <strong className="toast-title">{toast.title}</strong>}
        {toast.description && <p className="toast-description">{toast.description}</p>}
      </div>
      <button type="button" className="toast-close" aria-label="Dismiss notification" onClick={() => dismiss(toast.id)}>
        <span aria-hidden="true">✕</span>
      </button>
    </li>
  );
}
