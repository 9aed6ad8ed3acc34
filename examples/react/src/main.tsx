import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, type DemoConfig } from './App';

const config: DemoConfig = await (await fetch('/config.json')).json();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App config={config} />
  </StrictMode>,
);
