import { useRef } from 'react';
import { expectTypeOf, test } from 'vitest';
import type { PlatformDashboardElement } from '../src/index';

test('React 19 JSX: attributes, session property, ref and on<event> props', () => {
  function Host() {
    const ref = useRef<PlatformDashboardElement>(null);
    return (
      <platform-dashboard
        ref={ref}
        base-url="https://tenant.example"
        public-id="sales"
        session-url="/api/session"
        allow-export
        show-dashboard-header="false"
        color-scheme="dark"
        className="embed"
        style={{ height: 600 }}
        onplatform-ready={(e) => expectTypeOf(e.detail.mode).toEqualTypeOf<'signed' | 'private'>()}
        onplatform-drilldown={(e) => expectTypeOf(e.detail.member).toBeString()}
        onplatform-statechange={(e) => expectTypeOf(e.detail.status).toBeString()}
      />
    );
  }
  void Host;
  void (<platform-chat base-url="https://tenant.example" session={async () => 'id'} />);
  void (<platform-app base-url="https://tenant.example" deployment-id={42} session="id" />);
  // @ts-expect-error public-id is required on a dashboard
  void (<platform-dashboard base-url="https://tenant.example" />);
  // @ts-expect-error a boolean false only removes the attribute, which would show the header: write "false"
  void (<platform-dashboard base-url="https://tenant.example" public-id="p" show-dashboard-header={false} />);
  // @ts-expect-error not a color scheme
  void (<platform-chat base-url="https://tenant.example" color-scheme="purple" />);
  // @ts-expect-error the handler gets a drilldown event
  void (<platform-dashboard base-url="https://tenant.example" public-id="p" onplatform-drilldown={(e: CustomEvent<number>) => e} />);
});
