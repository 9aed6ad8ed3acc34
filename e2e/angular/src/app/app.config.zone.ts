import { provideBrowserGlobalErrorListeners, provideZoneChangeDetection, type ApplicationConfig } from '@angular/core';
import { provideClientHydration, withEventReplay } from '@angular/platform-browser';
import { RouteReuseStrategy, provideRouter, withComponentInputBinding } from '@angular/router';
import { routes } from './app.routes';
import { appRouteReuse } from './routeReuse';

// With zone.js (the `zone` configuration, which loads its polyfill).
export const appConfig: ApplicationConfig = {
  providers: [
    provideBrowserGlobalErrorListeners(),
    provideZoneChangeDetection({ eventCoalescing: true }),
    provideRouter(routes, withComponentInputBinding()),
    { provide: RouteReuseStrategy, useFactory: appRouteReuse },
    provideClientHydration(withEventReplay()),
  ],
};
