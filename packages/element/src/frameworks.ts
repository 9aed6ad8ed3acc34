/*
 * Template typings for Svelte 5 and Solid, as jsx.ts does for React 19 and Vue. Like jsx.ts, they
 * reference only this package's types and the DOM's (never a Svelte or Solid type by name), so
 * in a project without Svelte or Solid the augmentations compile and do nothing, even with
 * `skipLibCheck: false` (an augmentation of a module that cannot be found is not an error in a
 * declaration file). Angular needs no typings: see the package README (CUSTOM_ELEMENTS_SCHEMA).
 */
import type { SessionSource } from '@platform-embed/core';
import type { PlatformElementEventMap } from './elementEvents';
import type { PlatformAppElement, PlatformChatElement, PlatformDashboardElement } from './elements';
import type { PlatformElementAttributes } from './jsx';
// The augmented modules, in the program that compiles this file (an augmentation alone does not
// bring its module in). Empty type imports: the declaration bundle drops them.
import type {} from 'solid-js/jsx-runtime';
import type {} from 'svelte/elements';

/** Svelte 5 event attributes: `onplatform-drilldown={(e) => e.detail.member}` listens for `platform-drilldown`. */
export type PlatformElementSvelteEvents = {
  [K in keyof PlatformElementEventMap as `on${K}`]?: (event: PlatformElementEventMap[K]) => void;
};

/**
 * Svelte 5 props of an element: its attributes (Svelte sets a name the element has no property
 * for as an attribute), the `session` property, common HTML attributes and `onplatform-<event>`.
 */
export type PlatformElementSvelteProps<T, Required extends string = never> = PlatformElementAttributes<'base-url' | Required> & {
  /** A session id or a function minting one per load (set as a property). */
  session?: SessionSource | undefined;
  id?: string | undefined | null;
  class?: unknown;
  style?: string | undefined | null;
  slot?: string | undefined | null;
  hidden?: boolean | undefined | null;
  /** `bind:this={el}`. */
  'bind:this'?: T | null | undefined;
  children?: unknown;
} & PlatformElementSvelteEvents;

/** Solid attributes: `attr:base-url`, because Solid sets every other name on a custom element as a (camelCased) property. */
export type PlatformElementSolidAttributes<Required extends string = never> = {
  [A in keyof PlatformElementAttributes<'base-url' | Required> as `attr:${A}`]: PlatformElementAttributes<'base-url' | Required>[A];
};

/** Solid event listeners: `on:platform-drilldown={(e) => e.detail.member}`. */
export type PlatformElementSolidEvents = {
  [K in keyof PlatformElementEventMap as `on:${K}`]?: (event: PlatformElementEventMap[K]) => void;
};

/** Solid JSX props of an element: `attr:` attributes, the `session` property, common attributes and `on:` events. */
export type PlatformElementSolidProps<T, Required extends string = never> = PlatformElementSolidAttributes<Required> & {
  /** A session id or a function minting one per load (set as a property). */
  session?: SessionSource | undefined;
  'prop:session'?: SessionSource | undefined;
  id?: string | undefined;
  class?: string | undefined;
  classList?: { [name: string]: boolean | undefined } | undefined;
  style?: string | { [property: string]: string | undefined } | undefined;
  slot?: string | undefined;
  hidden?: boolean | undefined;
  children?: unknown;
  /** `ref={el}` (a variable Solid assigns) or a callback receiving the element. */
  ref?: T | ((element: T) => void) | undefined;
} & PlatformElementSolidEvents;

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'platform-dashboard': PlatformElementSvelteProps<PlatformDashboardElement, 'public-id'>;
    'platform-chat': PlatformElementSvelteProps<PlatformChatElement>;
    'platform-app': PlatformElementSvelteProps<PlatformAppElement, 'deployment-id'>;
  }
}

// Solid's JSX namespace is declared in solid-js/jsx-runtime (re-exported by solid-js): augmented
// there, as TypeScript loads that module for any Solid JSX, even in a file that imports nothing from solid-js.
declare module 'solid-js/jsx-runtime' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Solid declares JSX as a namespace of the module
  namespace JSX {
    interface IntrinsicElements {
      'platform-dashboard': PlatformElementSolidProps<PlatformDashboardElement, 'public-id'>;
      'platform-chat': PlatformElementSolidProps<PlatformChatElement>;
      'platform-app': PlatformElementSolidProps<PlatformAppElement, 'deployment-id'>;
    }
  }
}
