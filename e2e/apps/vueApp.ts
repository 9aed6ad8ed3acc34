// The Vue fixture: one <PlatformDashboard> whose props the test changes, rendered by the server
// bundle (vue/server-renderer) and by the browser bundle (createApp or createSSRApp), in
// Vue's development build.
import { defineComponent, h, shallowRef, type PropType } from 'vue';
import { PlatformDashboard, type ColorScheme, type PlatformEmbedExpose } from '@platform-embed/vue';

/** The props the test controls. */
export interface AppProps {
  baseUrl: string;
  publicId: string;
  colorScheme?: ColorScheme;
}

/** The template ref of the one dashboard on the page. */
export const dashboard = shallowRef<PlatformEmbedExpose<'dashboard'> | null>(null);

const session = () => fetch('/api/session', { method: 'POST' }).then((response) => response.json());

/** The root component: renders the dashboard with the given props. */
export const App = defineComponent({
  props: {
    baseUrl: { type: String, required: true },
    publicId: { type: String, required: true },
    colorScheme: { type: String as PropType<ColorScheme>, default: undefined },
  },
  setup: (props) => () =>
    h(PlatformDashboard, {
      ref: dashboard,
      baseUrl: props.baseUrl,
      publicId: props.publicId,
      colorScheme: props.colorScheme,
      session,
      style: 'width: 400px; height: 300px',
    }),
});
