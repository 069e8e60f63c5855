// Renderer entry: starts the session and mounts the app. Styles are imported
// here so the build emits them as a file (the page's CSP allows no inline <style>).
//
// Every stylesheet, first, in the order the rules cascade in (equal weights: the
// later wins). Each screen imports its own as well; those of the screens loaded
// when first shown (app/later-screens.tsx) would otherwise come last, after the
// app's, and rules that lost before would win. The build makes them one file.
// Before them all, the locale's data starts loading in a worker, and the session
// and the first rows are asked of main (see there).
import './vocabulary/locale-data-start';
import './app/opening-start';
import './sign-in/sign-in.css';
import './ui/kind-consent.css';
import './ui/bulk-bar.css';
import './ui/task-cards.css';
import './ui/file-drop.css';
import './ui/rename-and-retry.css';
import './ui/refused-changes.css';
import './board/board.css';
import './command-palette/command-palette.css';
import './ui/dated-item-form.css';
import './ui/progress-bars.css';
import './ui/task-lines.css';
import './goals/goals.css';
import './inbox/inbox.css';
import './milestones/milestones.css';
import './saved-views/saved-views.css';
import './sprints/sprints.css';
import './app/sidebar.css';
import './sync-center/sync-center.css';
import './status-bar/status-bar.css';
import './task-detail/task-detail.css';
import './ui/suggestion-list.css';
import './task-detail/comments.css';
import './ui/draft-mark.css';
import './task-list/task-list.css';
import './triage/triage.css';
import './ui/undo-toast.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { openingAnswered } from './app/start-app';
import './styles/app.css';
import './styles/shell.css';
import './styles/sync-trust.css';

/**
 * How long the first render waits for main's answers (start-app.ts): they come
 * back while the modules evaluate, 10-60 ms after; a slower main (an upgrade of
 * the saved tasks) has the splash drawn then.
 */
const FIRST_RENDER_WAIT_MS = 250;

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');
void openingAnswered(FIRST_RENDER_WAIT_MS).then(() =>
  createRoot(rootElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
