import { ActivatedRoute, BaseRouteReuseStrategy, type ActivatedRouteSnapshot, type RouteReuseStrategy } from '@angular/router';
import { ɵroutedEmbeds } from '@platform-embed/angular';

/**
 * Makes the app's `RouteReuseStrategy` keep the embeds of the routes it detaches: the router
 * takes a detached route's view out of the document, which unloads an iframe (attached again,
 * it would load its URL with the session it already used, which the platform refuses). Right
 * before the router removes a route's view it asks the strategy `shouldDetach(route)`; then the
 * embed components of that route move their embed aside, with its document where the browser
 * can (`moveBefore`), and when the route is attached again (`store(route, null)`) they take it
 * back after the next render: the same iframe, no session, no reload, inputs changed meanwhile
 * applied as `update()` (a new `colorScheme` is an action). The embeds of a route that is
 * destroyed move aside too, so that a `keepAlive` one is parked with its document. Without
 * `moveBefore` (Safari) an embed moved aside drops its frame and, back, loads a new one with a
 * fresh session and its kept state.
 *
 * The strategy's other methods are its own: this patches `shouldDetach` and `store` on the given
 * object and returns it.
 * @param strategy the app's strategy; by default one that reuses nothing (Angular's default),
 *   for `keepAlive` embeds parked with their document when their route is left
 * @example
 * ```ts
 * providers: [provideRouter(routes), { provide: RouteReuseStrategy, useFactory: () => keepEmbeds(new AppReuseStrategy()) }]
 * ```
 */
export function keepEmbeds<T extends RouteReuseStrategy>(strategy: T = new (class extends BaseRouteReuseStrategy {})() as unknown as T): T {
  const { shouldDetach, store } = strategy;
  strategy.shouldDetach = (route: ActivatedRouteSnapshot) => {
    for (const embed of ɵroutedEmbeds) if (embed.injector.get(ActivatedRoute, null)?.snapshot.pathFromRoot.includes(route)) embed.detach();
    return shouldDetach.call(strategy, route);
  };
  strategy.store = (route, handle) => {
    // (The router stores `null` right before it attaches the route it retrieved.)
    if (!handle) ɵroutedEmbeds.forEach((embed) => embed.attach());
    store.call(strategy, route, handle);
  };
  return strategy;
}
