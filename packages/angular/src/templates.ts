import { DestroyRef, Directive, ElementRef, Input, TemplateRef, ViewContainerRef, inject, type OnChanges } from '@angular/core';
import type { EmbedError } from '@platform-embed/core';
import { embedsByElement } from './platformEmbed';

/*
 * The templates give themselves to the surface component whose element they are in (its
 * content, or a control flow block of it), found by that element: not with a content query,
 * which would make every app that uses the package ship Angular's query engine (about 3 KB gzip).
 */

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

  constructor() {
    given(this.template, 0);
  }
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
 * element, when the embed failed. Its context is typed (strict templates check `error` and `retry`).
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

  constructor() {
    given(this.template, 1);
  }

  /** Types the template's context for Angular's template type checker. */
  static ngTemplateContextGuard(_directive: PlatformEmbedError, _context: unknown): _context is PlatformEmbedErrorContext {
    return true;
  }
}

/** Gives `template` to the embed component whose element it is in (0: loading, 1: error), for as long as it is there. */
function given<C>(template: TemplateRef<C>, kind: 0 | 1) {
  // (The element the template is in: its parent, or the parent of the block it is in.)
  const embed = embedsByElement.get(inject(ElementRef, { skipSelf: true }).nativeElement);
  const set = (value?: TemplateRef<C>) =>
    embed?.templates.update((both) => {
      const next: unknown[] = [...both];
      next[kind] = value;
      return next as typeof both;
    });
  set(template);
  inject(DestroyRef).onDestroy(set);
}

/**
 * Renders a template with a context where it stands (what `NgTemplateOutlet` does, without what
 * the surface components do not need).
 * @internal
 */
@Directive({ selector: '[platformEmbedView]' })
export class ɵPlatformEmbedView implements OnChanges {
  private readonly place = inject(ViewContainerRef);
  /** @internal */
  @Input() platformEmbedView?: TemplateRef<unknown>;
  /** @internal */
  @Input() platformEmbedViewContext?: object;

  /** @internal */
  ngOnChanges(): void {
    this.place.clear();
    if (this.platformEmbedView) this.place.createEmbeddedView(this.platformEmbedView, this.platformEmbedViewContext);
  }
}
