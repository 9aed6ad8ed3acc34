import {
  DestroyRef,
  Directive,
  ElementRef,
  Injector,
  NgZone,
  afterRenderEffect,
  computed,
  contentChild,
  inject,
  reflectComponentType,
  signal,
  untracked,
  type OutputEmitterRef,
  type Signal,
  type Type,
} from '@angular/core';
import {
  EVENT_SCHEMAS,
  IDLE,
  createBinding,
  eventProp,
  type EmbedBindingOptions,
  type EmbedHandle,
  type EmbedState,
  type EventName,
  type Surface,
} from '@platform-embed/core';
import { PlatformEmbedBase } from './generated/base';
import { ɵroutedEmbeds, type ɵRoutedEmbed } from './routedEmbeds';
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
  '@if (loadingView(); as loading) {<div style="position:absolute;inset:0"><ng-container [ngTemplateOutlet]="loading" /></div>}' +
  '@if (errorView(); as failed) {<div role="alert" style="position:absolute;inset:0">' +
  '<ng-container [ngTemplateOutlet]="failed.template" [ngTemplateOutletContext]="failed.context" /></div>}';

/**
 * What the surface components share: the mapping of Angular's lifecycle onto the core's
 * controller, and nothing more. The controller is created after the first render in the
 * browser (never on the server), `update()`d with every input whenever one changes (the core
 * decides what a change means: an action, a reload or a swap) and destroyed with the component
 * (parked with `keepAlive`); with `keepEmbeds()` (`@platform-embed/angular/router`) it moves
 * aside before the router takes its route's view out of the document, and back when the route
 * is attached again. It runs outside Angular's zone, where Angular runs every after-render effect (its timers and
 * listeners never keep an app unstable); its events and state changes come back into the zone,
 * so templates update with zone.js as without.
 */
@Directive({
  // The element of every surface component is the embed's container: a block (which the iframe
  // fills: give it a height) laid out for the templates over it; the host's own `style` wins. It
  // is `aria-busy` while loading when a template is given, as in the other bindings.
  host: {
    style: 'display:block;position:relative',
    '[attr.data-platform-embed]': 'surface',
    '[attr.aria-busy]': '(loadingTemplate() || errorTemplate()) && busy() || null',
  },
})
export abstract class PlatformEmbed<S extends Surface> extends PlatformEmbedBase {
  /** The embedded surface. */
  protected abstract readonly surface: S;

  private readonly binding = createBinding<S>();
  private readonly current = signal<EmbedState>(IDLE);
  /** The embed's state: `idle` until the first render in the browser (and on the server), then `loading`, `ready`, `error` or `destroyed`. */
  readonly state: Signal<EmbedState> = this.current.asReadonly();
  /** The core's controller (actions, `update()`, `reload()`, `on()`, ...), `null` until the first render in the browser and after destroy. */
  readonly handle: Signal<EmbedHandle<S> | null> = computed(() => (this.state(), this.binding.handle));

  /** @internal */
  protected readonly loadingTemplate = contentChild(PlatformEmbedLoading);
  /** @internal */
  protected readonly errorTemplate = contentChild(PlatformEmbedError);
  /** @internal Neither ready nor failed: loading, or not created yet (as in the server HTML). */
  protected readonly busy = computed(() => !this.state().ready && !this.state().error);
  /** @internal The loading template while busy. */
  protected readonly loadingView = computed(() => (this.busy() ? this.loadingTemplate()?.template : undefined));
  /**
   * @internal The error template and its context when failed (reload() returns the core's
   * `ready` promise, whose rejection the core already handles).
   */
  protected readonly errorView = computed(() => {
    const error = this.state().error;
    const template = this.errorTemplate()?.template;
    return error && template && { template, context: { $implicit: error, retry: () => void this.handle()?.reload() } };
  });

  constructor() {
    super();
    const zone = inject(NgZone);
    const container: HTMLElement = inject(ElementRef).nativeElement;
    // Every input is an option (the generated ones): read them all, whatever the surface.
    const names = reflectComponentType(this.constructor as Type<unknown>)!.inputs.map((input) => input.propName);
    const outputs = this as unknown as Record<string, OutputEmitterRef<unknown>>;
    // One handler option per event of the catalog, emitting its output; created once, so an
    // update never sees new handlers.
    const handlers: Record<string, unknown> = { onEvent: (message: unknown) => zone.run(() => outputs['event']!.emit(message)) };
    for (const event of Object.keys(EVENT_SCHEMAS) as EventName[])
      handlers[eventProp(event)] = (payload: unknown) => zone.run(() => outputs[outputName(event)]!.emit(payload));
    // The SDK's errors go to the console unless the host hears them: while something (an
    // `(error)` binding) subscribes to the `error` output.
    const error = outputs['error']!;
    const subscribe = error.subscribe.bind(error);
    let heard = 0;
    error.subscribe = (listener) => {
      const subscription = subscribe(listener);
      let counted = !!++heard;
      return { unsubscribe: () => (counted && heard--, (counted = false), subscription.unsubscribe()) };
    };
    this.binding.subscribe(() => zone.run(() => this.current.set(this.binding.getState())));
    // The router takes a route's view out of the document (which unloads an iframe) before any
    // hook of its components runs; @platform-embed/angular/router moves the route's embeds aside
    // first (`away`: their element is out of the document until the route is attached again) and
    // brings them back after the next render once attached (`back`).
    let away = false;
    const back = signal(0);
    const routed: ɵRoutedEmbed = {
      injector: inject(Injector),
      detach: () => ((away = true), this.binding.detach()),
      attach: () => away && back.set(back() + 1),
    };
    afterRenderEffect(() => {
      const options: Record<string, unknown> = { ...handlers, surface: this.surface };
      for (const name of names) options[name] = (this as unknown as Record<string, Signal<unknown>>)[name]!();
      if (!heard) delete options.onError;
      back();
      untracked(() => {
        if (away && !container.isConnected) return;
        away = false;
        ɵroutedEmbeds.add(routed);
        this.binding.mount(container, options as EmbedBindingOptions<S>);
      });
    });
    inject(DestroyRef).onDestroy(() => (ɵroutedEmbeds.delete(routed), this.binding.unmount()));
  }
}
