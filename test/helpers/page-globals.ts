/**
 * The browser globals read by the functions the browser tests run in the page (addInitScript, evaluate,
 * waitForFunction). tsconfig has no DOM library (everything else runs in Node), so a test file names them for the
 * type checker with these types: `declare const document: PageDocument;`.
 */

export interface PageElement {
  readonly id: string;
  readonly tagName: string;
  readonly textContent: string | null;
  readonly classList: { contains(token: string): boolean };
  getBoundingClientRect(): { readonly right: number };
}

export interface PageDocument {
  readonly activeElement: PageElement | null;
  readonly documentElement: { readonly scrollWidth: number };
  getElementById(id: string): PageElement | null;
  querySelectorAll(selectors: string): ArrayLike<PageElement>;
}

export interface PageWindow {
  /** The EIP-1193 provider a wallet without EIP-6963 sets. */
  ethereum?: unknown;
  readonly CustomEvent: typeof CustomEvent;
  readonly MutationObserver: new (callback: () => void) => {
    observe(target: PageDocument, options: { subtree?: boolean; childList?: boolean; characterData?: boolean }): void;
  };
  addEventListener(type: string, listener: () => void): void;
  dispatchEvent(event: Event): boolean;
  getComputedStyle(element: PageElement): { readonly outlineStyle: string; readonly maxWidth: string; readonly backgroundColor: string };
}
