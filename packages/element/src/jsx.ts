/*
 * JSX typings for React 19 and Vue templates. They reference only this package's types and
 * the DOM's (never a React or Vue type by name), so the augmentations compile, and do nothing,
 * in a project without React or Vue installed, even with `skipLibCheck: false`.
 */
import type { AttributesOf, CamelCase, ColorScheme, DefaultOffAttribute, SessionSource } from '@platform-embed/core';
import type { PlatformElementEventMap } from './elementEvents';
import type { PlatformAppElement, PlatformChatElement, PlatformDashboardElement } from './elements';
import type { FlagAttribute, JsonAttribute, NumberAttribute, StringAttribute } from './platformElement';

/**
 * The attributes of the elements, as written in markup (strings). `base-url` is required, and
 * `public-id` / `deployment-id` on the surface that needs it.
 */
export type PlatformElementAttributes<Required extends string = never> = {
  [A in Exclude<StringAttribute | JsonAttribute | 'session-url', Required | 'session' | 'color-scheme'>]?: string;
} & { [A in Required]: A extends 'deployment-id' ? string | number : string } & {
  /** `true` or `"true"` opts in, `"false"` turns a default-on control off (a boolean `false` only removes the attribute). */
  [A in FlagAttribute]?: true | 'true' | 'false' | (A extends DefaultOffAttribute ? false : never);
} & {
  [A in NumberAttribute]?: string | number;
} & {
  /** Present (or `true`) for a name derived from what is embedded, or the name itself. */
  [A in AttributesOf<'flagOrName'>]?: true | string;
} & {
  'color-scheme'?: ColorScheme;
};

/** JSX props of an element: its attributes, the `session` property, and common HTML attributes. */
export type PlatformElementJsxProps<T, Required extends string = never> = PlatformElementAttributes<'base-url' | Required> & {
  /** A session id or a function minting one per load (set as a property). */
  session?: SessionSource;
  id?: string;
  class?: string;
  className?: string;
  style?: string | { [property: string]: string | number | undefined };
  slot?: string;
  hidden?: boolean;
  children?: unknown;
  /** A React ref object or callback receiving the element. */
  ref?: { current: T | null } | ((element: T | null) => void | (() => void)) | null;
};

/** React 19 event props: `onplatform-ready={(e) => e.detail.mode}` listens for `platform-ready`. */
export type PlatformElementReactEvents = {
  [K in keyof PlatformElementEventMap as `on${K}`]?: (event: PlatformElementEventMap[K]) => void;
};

/** Vue event props (`@platform-ready` in a template), as `onPlatformReady` and `'onPlatform-ready'`. */
export type PlatformElementVueEvents = {
  [K in keyof PlatformElementEventMap as `on${Capitalize<K>}` | `on${Capitalize<CamelCase<K>>}`]?: (
    event: PlatformElementEventMap[K],
  ) => void;
};

/**
 * Vue template props of an element. Vue's type checker (vue-tsc, Volar) checks the attributes of
 * a component camelCased, as Vue normalizes component props: `base-url` is checked as `baseUrl`.
 * The element itself still gets `base-url` as an attribute.
 */
export type PlatformElementVueProps<T, Required extends string = never> = {
  [A in keyof PlatformElementAttributes<'base-url' | Required> as CamelCase<A>]: PlatformElementAttributes<'base-url' | Required>[A];
} & {
  /** A session id or a function minting one per load (set as a property). */
  session?: SessionSource;
  id?: string;
  class?: unknown;
  style?: unknown;
  slot?: string;
  hidden?: boolean;
  key?: string | number | symbol;
  /** A template ref: `ref="name"`, a ref object or a function receiving the element. */
  ref?: string | { value: T | null } | ((element: T | null) => void);
} & PlatformElementVueEvents;

/** A Vue `GlobalComponents` entry for a custom element: the element instance plus template props. */
export type PlatformVueElement<T, Required extends string = never> = new () => T & {
  /** For template type checking only. */
  $props: PlatformElementVueProps<T, Required>;
};

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- React 19 declares JSX as a namespace of the module
  namespace JSX {
    interface IntrinsicElements {
      'platform-dashboard': PlatformElementJsxProps<PlatformDashboardElement, 'public-id'> & PlatformElementReactEvents;
      'platform-chat': PlatformElementJsxProps<PlatformChatElement> & PlatformElementReactEvents;
      'platform-app': PlatformElementJsxProps<PlatformAppElement, 'deployment-id'> & PlatformElementReactEvents;
    }
  }
}

declare module 'vue' {
  interface GlobalComponents {
    'platform-dashboard': PlatformVueElement<PlatformDashboardElement, 'public-id'>;
    'platform-chat': PlatformVueElement<PlatformChatElement>;
    'platform-app': PlatformVueElement<PlatformAppElement, 'deployment-id'>;
  }
}
