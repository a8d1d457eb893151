import { create } from "zustand";

// At most one toast, closing itself after 5 s; a dismissed toast is kept
// (closed) for TOAST_REMOVE_DELAY before it leaves the store.
const TOAST_LIMIT = 1;
export const TOAST_DURATION = 5000;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const SWIPE_THRESHOLD = 50;

type ToastVariant = "default" | "destructive";

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: ToastVariant;
}

export interface Toast extends ToastInput {
  id: string;
  open: boolean;
}

interface ToastState {
  toasts: Toast[];
  show(input: ToastInput): string;
  update(id: string, input: ToastInput): void;
  dismiss(id?: string): void;
  remove(id?: string): void;
}

let counter = 0;
const closeTimers = new Map<string, ReturnType<typeof setTimeout>>();
const removeTimers = new Map<string, ReturnType<typeof setTimeout>>();

function clearTimer(timers: Map<string, ReturnType<typeof setTimeout>>, id: string) {
  const timer = timers.get(id);
  if (timer) clearTimeout(timer);
  timers.delete(id);
}

export const useToastStore = create<ToastState>((set, get) => ({
  toasts: [],
  show(input) {
    const id = String(++counter);
    set((s) => ({ toasts: [{ ...input, id, open: true }, ...s.toasts].slice(0, TOAST_LIMIT) }));
    closeTimers.set(
      id,
      setTimeout(() => get().dismiss(id), TOAST_DURATION),
    );
    return id;
  },
  update(id, input) {
    set((s) => ({ toasts: s.toasts.map((t) => (t.id === id ? { ...t, ...input } : t)) }));
  },
  dismiss(id) {
    const targets = get().toasts.filter((t) => t.open && (id === undefined || t.id === id));
    for (const t of targets) {
      clearTimer(closeTimers, t.id);
      if (!removeTimers.has(t.id))
        removeTimers.set(
          t.id,
          setTimeout(() => get().remove(t.id), TOAST_REMOVE_DELAY),
        );
    }
    set((s) => ({ toasts: s.toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)) }));
  },
  remove(id) {
    for (const t of get().toasts) {
      if (id === undefined || t.id === id) {
        clearTimer(closeTimers, t.id);
        clearTimer(removeTimers, t.id);
      }
    }
    set((s) => ({ toasts: id === undefined ? [] : s.toasts.filter((t) => t.id !== id) }));
  },
}));

/** Shows a toast from anywhere (event handlers, mutation callbacks). */
export function toast(input: ToastInput): string {
  return useToastStore.getState().show(input);
}

/** Tells the admin or visitor that something failed: the toast in its warning colours. */
export function toastError(description: string, title = "Error"): string {
  return toast({ title, description, variant: "destructive" });
}
