import { PlatformElement } from './platformElement';

/**
 * `<platform-dashboard>`: a published dashboard. Requires `base-url` and `public-id`.
 * @example
 * ```html
 * <platform-dashboard base-url="https://acme.platform.example" public-id="sales" session-url="/api/embed-session"
 *   allow-export style="display:block;height:600px"></platform-dashboard>
 * ```
 */
export class PlatformDashboardElement extends PlatformElement<'dashboard'> {
  constructor() {
    super('dashboard', 'public-id');
  }
}

/**
 * `<platform-chat>`: the standalone analytics chat. Requires `base-url`; without a session it opens in private mode.
 * @example
 * ```html
 * <platform-chat base-url="https://acme.platform.example" session-url="/api/embed-session"></platform-chat>
 * ```
 */
export class PlatformChatElement extends PlatformElement<'chat'> {
  constructor() {
    super('chat');
  }
}

/**
 * `<platform-app>`: the creator-mode app of a deployment. Requires `base-url`, `deployment-id` and a session
 * (`session-url`, `session` or the `session` property).
 * @example
 * ```html
 * <platform-app base-url="https://acme.platform.example" deployment-id="42" session-url="/api/embed-session"></platform-app>
 * ```
 */
export class PlatformAppElement extends PlatformElement<'app'> {
  constructor() {
    super('app', 'deployment-id');
  }
}

/** The tag names and their classes, as registered by {@link defineElements}. */
export const ELEMENTS = {
  'platform-dashboard': PlatformDashboardElement,
  'platform-chat': PlatformChatElement,
  'platform-app': PlatformAppElement,
} as const;

/**
 * Registers the three elements (done on import of this package and by the script tag).
 * A tag already defined, for instance by a second copy of the SDK, is left as it is; without
 * a custom element registry (Node, server rendering) nothing happens.
 * @param registry the registry to define them in. @default customElements
 */
export function defineElements(registry: CustomElementRegistry | undefined = globalThis.customElements): void {
  for (const [tag, element] of Object.entries(ELEMENTS)) if (registry && !registry.get(tag)) registry.define(tag, element);
}

declare global {
  interface HTMLElementTagNameMap {
    'platform-dashboard': PlatformDashboardElement;
    'platform-chat': PlatformChatElement;
    'platform-app': PlatformAppElement;
  }
}
