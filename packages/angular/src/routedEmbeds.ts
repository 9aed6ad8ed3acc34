import type { Injector } from '@angular/core';

/**
 * An embed component as `@platform-embed/angular/router` sees it: where it is in the app (its
 * injector, which gives its route) and how it moves aside and comes back.
 * @internal
 */
export interface ɵRoutedEmbed {
  /** The component's injector. */
  readonly injector: Injector;
  /** Its view is about to leave the document: the embed moves aside (the core's `EmbedBinding.detach`). */
  detach(): void;
  /** A view may be back in the document: a moved-aside embed whose element is there goes back into it after the next render. */
  attach(): void;
}

/**
 * The embed components mounted in the browser (none on the server), for
 * `@platform-embed/angular/router`; without it nothing reads this.
 * @internal
 */
export const ɵroutedEmbeds: Set<ɵRoutedEmbed> = /* @__PURE__ */ new Set();
