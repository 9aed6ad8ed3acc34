import {
  DestroyRef,
  ElementRef,
  Injector,
  NgZone,
  afterNextRender,
  inject,
  signal,
  type OutputEmitterRef,
  type Signal,
  type SimpleChanges,
  type TemplateRef,
  type WritableSignal,
} from '@angular/core';
import {
  IDLE,
  createBinding,
  eventHandlers,
  eventProp,
  type EmbedBindingOptions,
  type EmbedHandle,
  type EmbedState,
  type EventName,
  type Surface,
} from '@platform-embed/core';
import { ɵroutedEmbeds, type ɵRoutedEmbed } from './routedEmbeds';
import type { PlatformEmbedErrorContext } from './templates';

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
  '@if (embed.loadingView(); as loading) {<div style="position:absolute;inset:0"><ng-template [platformEmbedView]="loading" /></div>}' +
  '@if (embed.errorView(); as failed) {<div role="alert" style="position:absolute;inset:0">' +
  '<ng-template [platformEmbedView]="failed" [platformEmbedViewContext]="embed.failure()" /></div>}';

/**
 * The element of every surface component is the embed's container: a block (which the iframe
 * fills: give it a height) laid out for the templates over it; the host's own `style` wins. It
 * is `aria-busy` while loading when a template is given, as in the other bindings.
 * @internal
 */
export const HOST_STYLE = 'display:block;position:relative';

/** What every surface component (`PlatformDashboard`, `PlatformChat`, `PlatformApp`) offers beyond its inputs and outputs. */
export interface PlatformEmbed<S extends Surface> {
  /** The embed's state: `idle` until the first render in the browser (and on the server), then `loading`, `ready`, `error` or `destroyed`. */
  readonly state: Signal<EmbedState>;
  /** The core's controller (actions, `update()`, `reload()`, `on()`, ...), `null` until the first render in the browser and after destroy. */
  readonly handle: Signal<EmbedHandle<S> | null>;
}

/**
 * What a surface component holds of its embed (its `embed` field, made by {@link ɵembed}): its
 * state for the component's template and host, and its inputs' changes.
 * @internal
 */
export interface ɵEmbed<S extends Surface> extends PlatformEmbed<S> {
  /** The loading and the error template, given by `PlatformEmbedLoading` and `PlatformEmbedError`. */
  readonly templates: WritableSignal<[loading?: TemplateRef<unknown>, error?: TemplateRef<PlatformEmbedErrorContext>]>;
  /** The error template's context while failed, one per error. */
  readonly failure: Signal<PlatformEmbedErrorContext | undefined>;
  /** With a template, neither ready nor failed: loading, or not created yet (as in the server HTML). */
  busy(): boolean;
  /** The loading template while busy. */
  loadingView(): TemplateRef<unknown> | undefined;
  /** The error template while failed. */
  errorView(): TemplateRef<PlatformEmbedErrorContext> | undefined;
  /** The inputs in `changes` changed (the component's `ngOnChanges`): an update after the next render. */
  changed(changes: SimpleChanges): void;
}

/** The embeds of the surface components by their element, for the templates inside them (src/templates.ts). */
export const embedsByElement: WeakMap<object, ɵEmbed<Surface>> = /* @__PURE__ */ new WeakMap();

/**
 * What the surface components share: the mapping of Angular's lifecycle onto the core's
 * controller, and nothing more. The controller is created after the first render in the
 * browser (never on the server), `update()`d with every input after any of them changes (the
 * core decides what a change means: an action, a reload or a swap) and destroyed with the
 * component (parked with `keepAlive`); with `keepEmbeds()` (`@platform-embed/angular/router`) it
 * moves aside before the router takes its route's view out of the document, and back when the
 * route is attached again. It runs outside Angular's zone, where Angular runs every after-render
 * callback (its timers and listeners never keep an app unstable); its events and state changes
 * come back into the zone, so templates update with zone.js as without.
 *
 * A function the components call (in a field initializer: an injection context), not a base
 * class: each component (generated: src/generated) declares its inputs, outputs and host itself,
 * so that no app ships Angular's inheritance of definitions for it.
 * @param component the component: its inputs are the options, its outputs the events
 * @internal
 */
export function ɵembed<S extends Surface>(component: object, surface: S): ɵEmbed<S> {
  const zone = inject(NgZone);
  const injector = inject(Injector);
  const container: HTMLElement = inject(ElementRef).nativeElement;
  const binding = createBinding<S>();
  const current = signal<EmbedState>(IDLE);
  const live = signal<EmbedHandle<S> | null>(null);
  const failure = signal<PlatformEmbedErrorContext | undefined>(undefined);
  const templates: ɵEmbed<S>['templates'] = signal([]);
  // The inputs set so far (every input is an option): what a mount reads.
  const inputs = new Set<string>();
  const fields = component as Record<string, OutputEmitterRef<unknown> & Signal<unknown>>;
  // One handler option per event of the catalog, emitting its output; created once, so an
  // update never sees new handlers.
  // (The catch-all's output, `event`, is outputName('event') too.)
  const handlers = eventHandlers((name, payload) => zone.run(() => fields[outputName(name as EventName)]!.emit(payload)));
  // The SDK's errors go to the console unless the host hears them: while something (an
  // `(error)` binding) subscribes to the `error` output.
  const error = fields['error']!;
  const subscribe = error.subscribe.bind(error);
  let heard = 0;
  error.subscribe = (listener) => {
    const subscription = subscribe(listener);
    let counted = !!++heard;
    return { unsubscribe: () => (counted && heard--, (counted = false), subscription.unsubscribe()) };
  };
  binding.subscribe(() =>
    zone.run(() => {
      const state = binding.getState();
      if (state.error != current().error)
        // (reload() returns the core's `ready` promise, whose rejection the core already handles.)
        failure.set(state.error ? { $implicit: state.error, retry: () => void live()?.reload() } : undefined);
      current.set(state);
      live.set(binding.handle);
    }),
  );
  // The router takes a route's view out of the document (which unloads an iframe) before any
  // hook of its components runs; @platform-embed/angular/router moves the route's embeds aside
  // first (`away`: their element is out of the document until the route is attached again) and
  // brings them back after the next render once attached.
  let away = false;
  let scheduled = false;
  let destroyed = false;
  const mount = () => {
    scheduled = false;
    if (destroyed || (away && !container.isConnected)) return;
    away = false;
    const options: Record<string, unknown> = { ...handlers, surface };
    for (const name of inputs) options[name] = fields[name]!();
    if (!heard) delete options.onError;
    ɵroutedEmbeds.add(routed);
    binding.mount(container, options as EmbedBindingOptions<S>);
  };
  // Mounts after the next render, in the browser only (never on the server), outside Angular's
  // zone; once, however many inputs change before it.
  const schedule = () => scheduled || ((scheduled = true), afterNextRender(mount, { injector }));
  const routed: ɵRoutedEmbed = {
    injector,
    detach: () => ((away = true), binding.detach()),
    attach: () => away && schedule(),
  };
  schedule();
  inject(DestroyRef).onDestroy(() => ((destroyed = true), ɵroutedEmbeds.delete(routed), binding.unmount()));
  const state = current.asReadonly();
  const busy = () => {
    const [loading, failed] = templates();
    return !!(loading || failed) && !state().ready && !state().error;
  };
  const embed: ɵEmbed<S> = {
    state,
    handle: live.asReadonly(),
    templates,
    failure,
    busy,
    loadingView: () => (busy() ? templates()[0] : undefined),
    errorView: () => failure() && templates()[1],
    changed(changes) {
      for (const name in changes) inputs.add(name);
      schedule();
    },
  };
  embedsByElement.set(container, embed as ɵEmbed<Surface>);
  return embed;
}
