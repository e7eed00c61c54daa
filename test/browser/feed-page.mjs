// The page the browser test loads: the official React feed components, configured from
// window.__NOTIFY__ (the service's URL, a publishable key, the user and a signed user token).
// KnockProvider identifies the user (PUT /v1/users/{id} with the publishable key) when given
// more than its id; a button sets the user's preferences through the same client.
import { KnockFeedProvider, KnockProvider, NotificationFeedPopover, NotificationIconButton, useKnockClient } from '@knocklabs/react';
import '@knocklabs/react/dist/index.css';
import React, { useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';

const h = React.createElement;
const config = window.__NOTIFY__;

function Bell() {
  const [isVisible, setIsVisible] = useState(false);
  const buttonRef = useRef(null);
  return h(
    'div',
    { id: 'bell' },
    h(NotificationIconButton, { ref: buttonRef, badgeCountType: 'unread', onClick: () => setIsVisible(!isVisible) }),
    h(NotificationFeedPopover, { buttonRef, isVisible, onClose: () => setIsVisible(false) }),
  );
}

function MuteEmail() {
  const knock = useKnockClient();
  const [status, setStatus] = useState('');
  const mute = () =>
    knock.user.setPreferences({ channel_types: { email: false } }).then(
      () => setStatus('saved'),
      (error) => setStatus(`failed: ${error.message}`),
    );
  return h('div', null, h('button', { id: 'mute-email', onClick: mute }, 'Mute email'), h('span', { id: 'mute-email-status' }, status));
}

function App() {
  const user = { id: config.userId, ...(config.userName ? { name: config.userName } : {}) };
  return h(
    KnockProvider,
    { apiKey: config.publishableKey, host: config.host, user, userToken: config.userToken },
    h(KnockFeedProvider, { feedId: config.feedId }, h(MuteEmail), h(Bell)),
  );
}

createRoot(document.getElementById('root')).render(h(App));
