// @ts-check
// The two message lines of both pages (the hosted login page and the converter page): `#status` (role=status,
// read when the reader is idle) says how things go, `#alert` (role=alert, read at once) says what failed. A new
// message empties the other line, so the page never shows an old error next to new progress. Both elements are in
// the page from the start: screen readers announce changes of a live region they already know.

/** @typedef {"" | "success" | "error"} MessageKind */

/**
 * @param {HTMLElement} status
 * @param {HTMLElement} alert
 */
export function messageLines(status, alert) {
  return {
    /**
     * @param {string} message
     * @param {MessageKind} [kind] "error" goes to the alert line, anything else to the status line.
     */
    say(message, kind = "") {
      const [shown, emptied] = kind === "error" ? [alert, status] : [status, alert];
      emptied.textContent = "";
      emptied.className = "";
      shown.textContent = message;
      shown.className = kind;
    },
    /** The line that shows a message, for the focus after an action (the status line when both are empty). */
    current() {
      return alert.textContent ? alert : status;
    },
  };
}

/**
 * What an error says: wallets reject with Error objects or with plain `{ code, message }` objects.
 * @param {unknown} error
 */
export function errorMessage(error) {
  if (error && typeof error === "object" && "message" in error && error.message) return String(error.message);
  return String(error);
}
