import {
  DestroyRef,
  Directive,
  ElementRef,
  NgZone,
  afterRenderEffect,
  computed,
  contentChild,
  inject,
  signal,
  untracked,
  type OutputEmitterRef,
  type Signal,
} from '@angular/core';
import {
  EVENT_SCHEMAS,
  IDLE,
  createBinding,
  eventProp,
  type BindingOptions,
  type EmbedHandle,
  type EmbedState,
  type EventName,
  type Surface,
} from '@platform-embed/core';
import { PlatformEmbedEvents } from './generated/events';
import { PlatformEmbedError, PlatformEmbedLoading } from './templates';

/**
 * The output of an event of the catalog: `dashboard-loaded` is `dashboardLoaded`.
 * @internal
 */
export const outputName = (event: EventName): string => {
  const prop = eventProp(event);
  return prop[2]!.toLowerCase() + prop.slice(3);
};

/**
 * The view of every surface component: the loading template while the embed loads (and in the
 * server HTML), the error template in a `role="alert"` region when it failed, both over the
 * iframe, which the core appends to the element after them.
 * @internal
 */
export const TEMPLATE =
  '@if (busy()) {@if (loadingTemplate(); as loading) {<div style="position:absolute;inset:0"><ng-container [ngTemplateOutlet]="loading.template" /></div>}}' +
  ' @else if (state().error; as error) {@if (errorTemplate(); as failed) {<div role="alert" style="position:absolute;inset:0">' +
  '<ng-container [ngTemplateOutlet]="failed.template" [ngTemplateOutletContext]="{ $implicit: error, retry: retryLoad }" /></div>}}';

/**
 * The element of every surface component is the embed's container: a block (which the
 * iframe fills: give it a height) laid out for the templates over it; the host's own `style`
 * wins. It is `aria-busy` while loading when a template is given, as in the other bindings.
 * @internal
 */
export const HOST = {
  style: 'display:block;position:relative',
  '[attr.data-platform-embed]': 'surface',
  '[attr.aria-busy]': '(loadingTemplate() || errorTemplate()) && busy() || null',
};

/**
 * What the surface components share: the mapping of Angular's lifecycle onto the core's
 * controller, and nothing more. The controller is created after the first render in the
 * browser (never on the server), `update()`d with every input whenever one changes (the core
 * decides what a change means: an action, a reload or a swap) and destroyed with the component.
 * It runs outside Angular's zone, where Angular runs every after-render effect (its timers and
 * listeners never keep an app unstable); its events and state changes come back into the zone,
 * so templates update with zone.js as without.
 */
@Directive()
export abstract class PlatformEmbed<S extends Surface> extends PlatformEmbedEvents {
  /** The embedded surface. */
  protected abstract readonly surface: S;
  /** The names of the option inputs (generated with them). */
  protected abstract readonly optionNames: readonly string[];

  private readonly binding = createBinding();
  private readonly current = signal<EmbedState>(IDLE);
  /** The embed's state: `idle` until the first render in the browser (and on the server), then `loading`, `ready`, `error` or `destroyed`. */
  readonly state: Signal<EmbedState> = this.current.asReadonly();
  /** The core's controller (actions, `update()`, `reload()`, `on()`, ...), `null` until the first render in the browser and after destroy. */
  readonly handle: Signal<EmbedHandle<S> | null> = computed(() => (this.state(), this.binding.handle as EmbedHandle<S> | null));

  /** @internal */
  protected readonly loadingTemplate = contentChild(PlatformEmbedLoading);
  /** @internal */
  protected readonly errorTemplate = contentChild(PlatformEmbedError);
  /** @internal Neither ready nor failed: loading, or not created yet (as in the server HTML). */
  protected readonly busy = computed(() => !this.state().ready && !this.state().error);
  /** @internal The error template's `retry` (reload() returns the core's `ready` promise, whose rejection the core already handles). */
  protected readonly retryLoad = (): void => void this.handle()?.reload();

  constructor() {
    super();
    const zone = inject(NgZone);
    const container: HTMLElement = inject(ElementRef).nativeElement;
    const outputs = this as unknown as Record<string, OutputEmitterRef<unknown>>;
    // One handler option per event of the catalog, emitting its output; created once, so an
    // update never sees new handlers.
    const handlers: Record<string, unknown> = { onEvent: (message: unknown) => zone.run(() => outputs['event']!.emit(message)) };
    for (const event of Object.keys(EVENT_SCHEMAS) as EventName[])
      handlers[eventProp(event)] = (payload: unknown) => zone.run(() => outputs[outputName(event)]!.emit(payload));
    this.binding.subscribe(() => zone.run(() => this.current.set(this.binding.getState())));
    afterRenderEffect(() => {
      const options: Record<string, unknown> = { ...handlers, surface: this.surface };
      for (const name of this.optionNames) options[name] = (this as unknown as Record<string, Signal<unknown>>)[name]!();
      untracked(() => this.binding.mount(container, options as BindingOptions));
    });
    inject(DestroyRef).onDestroy(this.binding.unmount);
  }
}
