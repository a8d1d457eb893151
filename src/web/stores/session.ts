import { create } from "zustand";

// Whether the admin's session ended while a page of the dashboard was open: the server
// refused an admin call with 401 (a change to how the admin signs in on another device
// ends every other session, and sessions expire), or the session check said no. The
// dashboard then asks the admin to sign in again in place, keeping every open form.

interface SessionState {
  /** The server no longer knows this browser's session. */
  ended: boolean;
  /** The sign-in dialog is open (the admin may close it and sign in later). */
  asking: boolean;
}

export const useSessionStore = create<SessionState>(() => ({ ended: false, asking: false }));

/**
 * The session is over. The sign-in dialog opens only when the admin tried to change
 * something (`ask`): a list refreshing itself or a draft copy saved in the background shows
 * the signed-out line instead, so a dialog never takes the focus from someone typing.
 */
export function sessionEnded(ask: boolean): void {
  useSessionStore.setState((state) => ({ ended: true, asking: state.asking || ask }));
}

/** The admin closed the sign-in dialog without signing in: the dashboard keeps saying so. */
export function postponeSignIn(): void {
  useSessionStore.setState({ asking: false });
}

/** The admin asked for the sign-in dialog again. */
export function askToSignIn(): void {
  useSessionStore.setState({ asking: true });
}

/** Signed in again (or signed out on purpose): nothing to say any more. */
export function sessionResumed(): void {
  useSessionStore.setState({ ended: false, asking: false });
}
