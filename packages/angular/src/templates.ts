import { Directive, TemplateRef, inject } from '@angular/core';
import type { EmbedError } from '@platform-embed/core';

/**
 * Marks the `<ng-template>` a surface component shows over its element while the embed loads
 * (and in the server HTML); the element gets `aria-busy="true"` meanwhile.
 * @example
 * ```html
 * <platform-embed-dashboard ...>
 *   <ng-template platformEmbedLoading><p>Loading the dashboard…</p></ng-template>
 * </platform-embed-dashboard>
 * ```
 */
@Directive({ selector: 'ng-template[platformEmbedLoading]' })
export class PlatformEmbedLoading {
  /** The marked template. */
  readonly template: TemplateRef<unknown> = inject(TemplateRef);
}

/** What the error template receives: the error as `let-error`, and `let-retry="retry"`. */
export interface PlatformEmbedErrorContext {
  /** The error: its `message` says the cause and the fix, its `code` which kind of failure it is. */
  $implicit: EmbedError;
  /** Loads the embed again with a fresh session. */
  retry: () => void;
}

/**
 * Marks the `<ng-template>` a surface component shows, in a `role="alert"` region over its
 * element (put no other alert in it), when the embed failed, also for an input it cannot use
 * (`invalid-option`: the component never throws into Angular). Its context is typed (strict
 * templates check `error` and `retry`).
 * @example
 * ```html
 * <ng-template platformEmbedError let-error let-retry="retry">
 *   <p>{{ error.message }} <button (click)="retry()">Try again</button></p>
 * </ng-template>
 * ```
 */
@Directive({ selector: 'ng-template[platformEmbedError]' })
export class PlatformEmbedError {
  /** The marked template. */
  readonly template: TemplateRef<PlatformEmbedErrorContext> = inject(TemplateRef);

  /** Types the template's context for Angular's template type checker. */
  static ngTemplateContextGuard(_directive: PlatformEmbedError, _context: unknown): _context is PlatformEmbedErrorContext {
    return true;
  }
}
