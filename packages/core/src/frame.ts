import { EmbedError, ErrorCode } from './errors';
import { listen, unlisten, type Receiver } from './listener';

/** The iframe attributes the SDK sets, from the embed's options. */
export interface FrameOptions {
  title?: string;
  allow?: string;
  sandbox?: string;
  referrerPolicy?: ReferrerPolicy;
  loading?: 'eager' | 'lazy';
  className?: string;
  style?: string;
}

/** One mounted iframe, routed to its embed. */
export interface Frame {
  readonly iframe: HTMLIFrameElement;
  readonly window: Window;
  /** Whether the iframe fired `load` (its document, or the browser's error page, finished loading). */
  loaded: boolean;
  /** Stops routing its messages and removes the iframe. */
  remove(): void;
}

/** Applies the presentation options (title, class, style): at mount, and to the current iframe when they change. */
export function present(iframe: HTMLIFrameElement, o: FrameOptions, surface: string): void {
  iframe.title = o.title ?? `Analytics ${surface}`;
  iframe.className = o.className ?? '';
  iframe.style.cssText = o.style ?? 'border:0;width:100%;height:100%;display:block';
}

/**
 * Creates the iframe of one load in `container` and routes its window's messages to `receive`.
 * @throws {EmbedError} `no-container` when the container is not in a document (the iframe gets no window).
 */
export function mountFrame(container: HTMLElement, url: string, o: FrameOptions, surface: string, receive: Receiver): Frame {
  const iframe = document.createElement('iframe');
  present(iframe, o, surface);
  iframe.allow = o.allow ?? 'fullscreen; clipboard-write';
  if (o.referrerPolicy) iframe.referrerPolicy = o.referrerPolicy;
  if (o.loading) iframe.loading = o.loading;
  if (o.sandbox != null) iframe.setAttribute('sandbox', o.sandbox);
  iframe.src = url;
  container.appendChild(iframe);
  const win = iframe.contentWindow;
  if (!win) {
    iframe.remove();
    throw new EmbedError(ErrorCode.NoContainer, __DEV__ ? 'the container is not in the document' : 'container');
  }
  listen(win, receive);
  const frame: Frame = {
    iframe,
    window: win,
    loaded: false,
    remove() {
      unlisten(win);
      iframe.remove();
    },
  };
  iframe.addEventListener('load', () => (frame.loaded = true));
  return frame;
}
