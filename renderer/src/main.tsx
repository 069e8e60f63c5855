// Renderer entry: starts the session and mounts the app. Styles are imported
// here so the build emits them as a file (the page's CSP allows no inline <style>).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, startApp } from './app/app';
import './styles/app.css';
import './styles/shell.css';
import './styles/sync-trust.css';

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');
// The page lives as long as the app: the session is never stopped.
startApp();
createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
