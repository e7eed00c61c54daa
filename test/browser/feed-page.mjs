// The page the browser test loads: the official React feed components, configured from
// window.__NOTIFY__ (the service's URL, a publishable key, the user and a signed user token).
import { KnockFeedProvider, KnockProvider, NotificationFeedPopover, NotificationIconButton } from '@knocklabs/react';
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

function App() {
  return h(
    KnockProvider,
    { apiKey: config.publishableKey, host: config.host, user: { id: config.userId }, userToken: config.userToken },
    h(KnockFeedProvider, { feedId: config.feedId }, h(Bell)),
  );
}

createRoot(document.getElementById('root')).render(h(App));
