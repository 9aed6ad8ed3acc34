// Node entry of the Vue fixture: the server-rendered markup that the browser hydrates.
import { createSSRApp } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { App, type AppProps } from './vueApp';

export const render = (props: AppProps): Promise<string> => renderToString(createSSRApp(App, { ...props }));
