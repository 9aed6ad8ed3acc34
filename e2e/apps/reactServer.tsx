// Node entry of the React fixture: the server-rendered markup that the browser hydrates.
import { version } from 'react';
import { renderToString } from 'react-dom/server';
import { tree, type AppProps } from './reactApp';

export { version };
export const render = (props: AppProps): string => renderToString(tree(props));
