/*
 * How the SDK learns that a node it waits on (a hidden component's container, the slot of a
 * parked frame) left the document, at no cost to the page's own DOM work: no MutationObserver, so
 * no record of any change anywhere. A hidden marker element inside the node is told by the browser
 * itself when it leaves the document (a custom element's `disconnectedCallback`); a move (out and
 * back in one task, or with `moveBefore`) is not a removal. One element name for every copy of the
 * SDK on the page: the first copy defines it, and each marker calls its own `gone`.
 */

const MARKER = 'platform-embed-watch';

type Marker = HTMLElement & { gone?: () => void };

/**
 * Calls `gone` once `node` (in the document now) leaves the document, in the microtask after the
 * change that removed it.
 * @returns stops the watch
 */
export function whenGone(node: Element, gone: () => void): () => void {
  if (!customElements.get(MARKER))
    customElements.define(
      MARKER,
      class extends HTMLElement {
        disconnectedCallback(this: Marker) {
          queueMicrotask(() => this.isConnected || this.gone?.());
        }
        // (Moved with moveBefore: neither out nor in.)
        connectedMoveCallback() {}
      },
    );
  const marker = document.createElement(MARKER) as Marker;
  marker.hidden = true;
  // (The marker alone taken out, the node still in: put back.)
  marker.gone = () => (node.isConnected ? node.append(marker) : gone());
  node.append(marker);
  return () => {
    marker.gone = undefined;
    marker.remove();
  };
}
