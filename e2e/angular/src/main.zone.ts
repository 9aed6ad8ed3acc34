import { provideZoneChangeDetection } from '@angular/core';
import { bootstrapApplication } from '@angular/platform-browser';
import { RouteReuseStrategy } from '@angular/router';
import { App } from './app/app';
import { appConfig } from './app/app.config';
import { appRouteReuse } from './app/routeReuse';

// The `zone` build of the guide's app (angular.json's `zone` configuration replaces src/main.ts
// with this file and loads zone.js): the guide's providers, with zone.js change detection and the
// test's route reuse instead of the guide's (routeReuse.ts).
bootstrapApplication(App, {
  providers: [
    ...appConfig.providers,
    provideZoneChangeDetection({ eventCoalescing: true }),
    { provide: RouteReuseStrategy, useFactory: appRouteReuse },
  ],
}).catch((error) => console.error(error));
