/**
 * Route reuse for the embed components of `@platform-embed/angular`: a secondary entry point,
 * so that `@angular/router` stays an optional peer dependency of the package.
 *
 * @module @platform-embed/angular/router
 */
export { keepEmbeds } from './keepEmbeds';
