/** @jsxImportSource solid-js */
// Type test of the custom elements' Solid typings (src/frameworks.ts): this file's JSX is Solid's.
import { expectTypeOf, test } from 'vitest';
import type { PlatformAppElement, PlatformDashboardElement, PlatformEvent } from '../src/index';

test('Solid JSX: attr: attributes, the session property, ref and on: events', () => {
  // eslint-disable-next-line no-unassigned-vars -- Solid's compiler assigns a variable passed as `ref`
  let el: PlatformDashboardElement | undefined;
  const onReady = (e: PlatformEvent<'ready'>) => e.detail.mode;
  void (
    <platform-dashboard
      ref={el}
      attr:base-url="https://tenant.example"
      attr:public-id="sales"
      attr:session-url="/api/session"
      attr:allow-export
      attr:show-dashboard-header="false"
      attr:color-scheme="dark"
      class="embed"
      style={{ height: '600px' }}
      on:platform-ready={onReady}
      on:platform-drilldown={(e) => expectTypeOf(e.detail.member).toBeString()}
      on:platform-statechange={(e) => expectTypeOf(e.detail.status).toBeString()}
    />
  );
  void (<platform-chat attr:base-url="https://tenant.example" session={async () => 'id'} />);
  void (
    <platform-app
      attr:base-url="https://tenant.example"
      attr:deployment-id={42}
      prop:session="id"
      ref={(e) => expectTypeOf(e).toEqualTypeOf<PlatformAppElement>()}
    />
  );
  // @ts-expect-error public-id is required on a dashboard
  void (<platform-dashboard attr:base-url="https://tenant.example" />);
  // @ts-expect-error Solid sets `base-url={...}` on a custom element as a `baseUrl` property, which the element does not read: write attr:base-url
  void (<platform-chat base-url="https://tenant.example" />);
  // @ts-expect-error not a color scheme
  void (<platform-chat attr:base-url="https://tenant.example" attr:color-scheme="purple" />);
  const wrong = (e: CustomEvent<number>) => e;
  // @ts-expect-error the handler gets a drilldown event
  void (<platform-dashboard attr:base-url="https://tenant.example" attr:public-id="p" on:platform-drilldown={wrong} />);
});
