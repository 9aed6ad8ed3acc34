/*
 * The iframe of a load: its options (the host decides the size, through the container or
 * `style`) and what a mounted one is to its controller (loadAttempt.ts mounts it).
 */

/** Attributes of the iframe the SDK creates. The host decides the size (through the container or `style`). */
export interface IframeOptions {
  /** Accessible title of the iframe. Changing it updates the current iframe. @default 'Analytics dashboard' | 'Analytics chat' | 'Analytics app' */
  title?: string;
  /** Permissions policy. @default 'fullscreen; clipboard-write' */
  allow?: string;
  /**
   * Optional sandbox tokens. Must include `allow-scripts` and `allow-same-origin` (refused
   * otherwise, in every build): without them the embed cannot run, or its messages come from `"null"`.
   */
  sandbox?: string;
  /** Referrer policy of the iframe request. */
  referrerPolicy?: ReferrerPolicy;
  /**
   * `'lazy'`: no session is minted and no iframe created until the container comes near the
   * viewport (status `idle` until then); a hidden container waits. The iframe gets the same attribute.
   * @default 'eager'
   */
  loading?: 'eager' | 'lazy';
  /** Class name(s) of the iframe. Changing it updates the current iframe. */
  className?: string;
  /** Inline style of the iframe. Changing it updates the current iframe. @default 'border:0;width:100%;height:100%;display:block' */
  style?: string;
}

/** One mounted iframe, routed to its embed. */
export interface Frame {
  readonly _iframe: HTMLIFrameElement;
  /** The window its messages are routed from (the iframe's `contentWindow` when it was mounted). */
  readonly _window: Window;
  /** How many times the iframe fired `load` (a document, or the browser's error page, finished loading). */
  _loads: number;
  /** How many `ready` its documents sent (one per document). */
  _readies: number;
  /** Stops routing its messages and removes the iframe. */
  _remove(): void;
}

/** Applies the presentation options (title, class, style): at mount, and to the current iframe when they change. */
export function present(iframe: HTMLIFrameElement, o: IframeOptions, surface: string): void {
  iframe.title = o.title ?? `Analytics ${surface}`;
  iframe.className = o.className ?? '';
  // (Production does not check it: an object, `{ height: 400 }`, would be "[object Object]".)
  iframe.style.cssText = typeof o.style == 'string' ? o.style : 'border:0;width:100%;height:100%;display:block';
}
