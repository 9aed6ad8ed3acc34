import { BaseRouteReuseStrategy, type ActivatedRouteSnapshot, type DetachedRouteHandle, type RouteReuseStrategy } from '@angular/router';
import { keepEmbeds } from '@platform-embed/angular/router';

/** The app's route reuse: the routes with `data: { reuse: true }` are detached when left and attached again, by path. */
export class ReuseMarkedRoutes extends BaseRouteReuseStrategy {
  private readonly stored = new Map<string, DetachedRouteHandle>();
  override shouldDetach(route: ActivatedRouteSnapshot): boolean {
    return route.data['reuse'] === true;
  }
  override store(route: ActivatedRouteSnapshot, handle: DetachedRouteHandle | null): void {
    if (handle) this.stored.set(route.routeConfig!.path!, handle);
    else this.stored.delete(route.routeConfig!.path!);
  }
  override shouldAttach(route: ActivatedRouteSnapshot): boolean {
    return this.stored.has(route.routeConfig?.path ?? '');
  }
  override retrieve(route: ActivatedRouteSnapshot): DetachedRouteHandle | null {
    return this.stored.get(route.routeConfig?.path ?? '') ?? null;
  }
}

/**
 * The zone build's strategy (main.zone.ts), made to keep its embeds with keepEmbeds(); with
 * `?plainRouter` in the page's address (e2e/guideAngular.spec.ts) as it is, to show what Angular's
 * router does without it.
 */
export function appRouteReuse(): RouteReuseStrategy {
  const strategy = new ReuseMarkedRoutes();
  const plain = typeof location != 'undefined' && new URLSearchParams(location.search).has('plainRouter');
  return plain ? strategy : keepEmbeds(strategy);
}
