// Only the styles the sign-in page, toasts and error screens use load up front; the signed-in
// shell brings the full Mantine stylesheet with its own chunk.
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/ActionIcon.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Code.css';
// First, before the router is created: a signed-out visit goes to the sign-in page untouched.
import './app/signed-out-entry';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadRoute } from './app/preload-route';
import { authState } from './lib/auth-store';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// A signed-in visit starts on its page's data now, not after the page's code has arrived. (Signed
// out, the visit ends at the login page: its code is all that is needed.)
if (authState.token) preloadRoute(window.location.pathname, { data: true });
// The first render as a transition: React draws it in slices and yields to the browser between
// them, instead of one task that holds a slow phone's main thread for the whole app.
startTransition(() =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
